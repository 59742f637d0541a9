// The entries context's internal payout routes (decision 0075) and the one client payouts calls them with:
// `POST /internal/tenants/{t}/payout-batches/{b}/{step}` with `{ entryIds, reservedUntil? }`, answered by
// one mark per entry in the order asked.
import type { PayoutBatchStep, PayoutMark, PayoutStepRequest } from '../payout-marks';
import { tenantPath, type InternalTransport } from './transport';

export interface PayoutStepAnswer {
  results: PayoutMark[];
}

/** entries as payouts asks it; anything but 2xx is 503. Every step is idempotent for the batch. */
export class EntriesClient {
  constructor(private readonly transport: InternalTransport) {}

  async run(
    step: PayoutBatchStep,
    tenantId: string,
    batchId: string,
    entryIds: readonly string[],
    reservedUntil: Date | null,
  ): Promise<PayoutMark[]> {
    const request: PayoutStepRequest = { entryIds: [...entryIds] };
    if (reservedUntil) request.reservedUntil = reservedUntil.toISOString();
    const body = await this.transport.postJson<PayoutStepAnswer>(
      tenantPath(tenantId, 'payout-batches', batchId, step),
      request,
    );
    return body.results;
  }
}
