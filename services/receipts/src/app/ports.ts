import type { EngineAnswer, Market } from '../domain/reading';

/** The engine: `Unreadable` for a file it cannot read; throws only for a failure a retry could fix. */
export interface ReceiptReader {
  read(input: { bytes: Buffer; contentType: string; market: Market }, signal: AbortSignal): Promise<EngineAnswer>;
}

/** The stored bytes of an attachment (entries' internal route); null: the attachment is gone. */
export interface AttachmentSource {
  bytes(
    tenantId: string,
    entryId: string,
    attachmentId: string,
  ): Promise<{ bytes: Buffer; contentType: string } | null>;
}
