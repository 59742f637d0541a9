// The readings of an entry's receipts (docs/decisions/0200): entries answers them from its projection of
// `receipts.reading.made`, with the attachment's visibility, so a read never waits on the busy receipts
// service. An image or PDF attachment without a reading yet is Pending.
import { notFound, parseTenantId, tenantOf, type CallerContext, type Logger } from '@travel/platform';
import type { Attachment } from '../domain/attachment';
import { readingOf, type AttachmentReading, type ReadingMade } from '../domain/reading';
import type { EntriesRepositories } from '../infra/repositories';
import type { ReadingStore } from '../infra/reading-store';
import type { EntryAccess } from './entry-access';

export interface ReadingView {
  attachment: Attachment;
  /** null: not read yet (Pending). */
  reading: AttachmentReading | null;
}

export class ReadingsApp {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries'>,
    private readonly access: EntryAccess,
    private readonly store: Pick<ReadingStore, 'get' | 'put' | 'remove'>,
    private readonly logger: Logger,
  ) {}

  /** The reading of an attachment of an entry the caller may read; 404 like the attachment's own GET. */
  async get(caller: CallerContext, entryId: string, rawAttachmentId: string): Promise<ReadingView> {
    const entry = await this.access.readable(caller, entryId);
    const id = rawAttachmentId.toLowerCase();
    const attachment = (entry.attachments ?? []).find((a) => a._id === id);
    if (!attachment) throw notFound('attachment');
    const reading = await this.store.get(tenantOf(caller), id);
    return { attachment, reading: reading && reading.entryId === entry._id ? reading : null };
  }

  /**
   * Keeps a reading while its attachment is still on its (live) entry. A delete racing the write removes
   * the row after it, so the attachment is looked at again once the row is written.
   */
  async project(event: ReadingMade): Promise<void> {
    const tenantId = parseTenantId(event.tenantId);
    const reading = readingOf(event);
    if (!(await this.attachmentListed(tenantId, reading.entryId, reading._id))) return;
    await this.store.put(tenantId, reading);
    if (!(await this.attachmentListed(tenantId, reading.entryId, reading._id))) {
      await this.store.remove(tenantId, reading._id);
      this.logger.info({ attachmentId: reading._id }, 'reading of an attachment deleted meanwhile dropped');
    }
  }

  private async attachmentListed(
    tenantId: ReturnType<typeof parseTenantId>,
    entryId: string,
    attachmentId: string,
  ): Promise<boolean> {
    const entry = await this.repos.entries.of(tenantId).get(entryId);
    return !!entry && !entry.deletedAt && (entry.attachments ?? []).some((a) => a._id === attachmentId);
  }
}
