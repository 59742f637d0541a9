import type { KeyObject } from 'node:crypto';
import { InternalClient, tenantPath } from '@travel/platform';
import type { BatchStep, EntryMark, EntryMarks } from '../app/ports';

/** The entries context's internal payout routes (docs/decisions/0075). */
export class EntriesClient implements EntryMarks {
  private readonly client: InternalClient;

  constructor(baseUrl: string, signingKey: KeyObject) {
    this.client = new InternalClient({
      baseUrl,
      signingKey,
      caller: 'payouts',
      target: 'entries',
      timeoutMs: 30_000,
    });
  }

  async run(step: BatchStep, tenantId: string, batchId: string, entryIds: readonly string[]): Promise<EntryMark[]> {
    const body = await this.client.postJson<{ results: EntryMark[] }>(
      tenantPath(tenantId, 'payout-batches', batchId, step),
      { entryIds },
    );
    return body.results;
  }
}
