import type { BatchStep, EntryMark, EntryMarks } from '../app/ports';
import { callService } from './service-call';

/** The entries context's internal payout routes (docs/decisions/0075). */
export class EntriesClient implements EntryMarks {
  constructor(
    private readonly baseUrl: string,
    private readonly contextSecret: string,
  ) {}

  async run(step: BatchStep, tenantId: string, batchId: string, entryIds: readonly string[]): Promise<EntryMark[]> {
    const path = `/internal/tenants/${encodeURIComponent(tenantId)}/payout-batches/${encodeURIComponent(batchId)}/${step}`;
    const res = await callService('entries', `${this.baseUrl}${path}`, this.contextSecret, {
      method: 'POST',
      body: { entryIds },
    });
    return ((await res.json()) as { results: EntryMark[] }).results;
  }
}
