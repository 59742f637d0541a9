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
