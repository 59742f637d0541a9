// The entries context's internal payout routes (decision 0075) and the one client payouts calls them with:
// `POST /internal/tenants/{t}/payout-batches/{b}/{step}` with `{ entryIds, reservedUntil? }`, answered by
// one mark per entry in the order asked.
import type { PayoutBatchStep, PayoutMark, PayoutStepRequest } from '../payout-marks';
import { tenantPath, type InternalTransport, type Refusal } from './transport';

export interface PayoutStepAnswer {
  results: PayoutMark[];
}

/** The one refusal of a whole step: a closed accounting period (docs/decisions/0211), passed on as it came. */
const PERIOD_CLOSED = 'PERIOD_CLOSED';

/**
 * entries as payouts asks it; a 409 `PERIOD_CLOSED` (the batch's payout date lies in a closed month) is the
 * same error, with `errors.period`; anything else but 2xx is 503. Every step is idempotent for the batch.
 */
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
    const res = await this.transport.send('POST', tenantPath(tenantId, 'payout-batches', batchId, step), request);
    if (res.status === 409) {
      const problem = (await res.json().catch(() => ({}))) as Partial<Refusal>;
      if (problem.code === PERIOD_CLOSED)
        throw this.transport.refused({ code: PERIOD_CLOSED, detail: problem.detail, errors: problem.errors });
    }
    if (!res.ok) throw this.transport.failed(res);
    return ((await res.json()) as PayoutStepAnswer).results;
  }
}

/** An attachment's stored bytes, as the receipts service reads them (docs/decisions/0200). */
export interface AttachmentBytes {
  contentType: string;
  bytes: Buffer;
}

/**
 * entries' attachment bytes for the receipts service: `GET /internal/tenants/{t}/travel-entries/{e}/attachments/{a}/bytes`,
 * answered with the bytes and the content type they were uploaded with. 404 (the attachment or its entry is
 * gone) is null; anything else is 503.
 */
export class EntriesAttachmentsClient {
  constructor(private readonly transport: InternalTransport) {}

  async bytes(tenantId: string, entryId: string, attachmentId: string): Promise<AttachmentBytes | null> {
    const res = await this.transport.send(
      'GET',
      tenantPath(tenantId, 'travel-entries', entryId, 'attachments', attachmentId, 'bytes'),
    );
    if (res.status === 404) return null;
    if (!res.ok) throw this.transport.failed(res);
    return {
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  }
}
