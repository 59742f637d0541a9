import type { KeyObject } from 'node:crypto';
import { InternalClient, tenantPath } from '@travel/platform';
import type { PayoutStepRequest } from '@travel/contracts';
import type { BatchStep, EntryMark, EntryMarks } from '../app/ports';

/** The entries context's internal payout routes (docs/decisions/0075). */
export class EntriesClient implements EntryMarks {
  private readonly client: InternalClient;

  constructor(baseUrl: string, signingKey: KeyObject, timeoutMs: number) {
    this.client = new InternalClient({ baseUrl, signingKey, caller: 'payouts', target: 'entries', timeoutMs });
  }

  async run(
    step: BatchStep,
    tenantId: string,
    batchId: string,
    entryIds: readonly string[],
    reservedUntil: Date | null,
  ): Promise<EntryMark[]> {
    const request: PayoutStepRequest = { entryIds: [...entryIds] };
    if (reservedUntil) request.reservedUntil = reservedUntil.toISOString();
    const body = await this.client.postJson<{ results: EntryMark[] }>(
      tenantPath(tenantId, 'payout-batches', batchId, step),
      request,
    );
    return body.results;
  }
}
