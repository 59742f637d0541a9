import { randomUUID } from 'node:crypto';
import {
  AppError,
  notFound,
  raiseEvent,
  type CallerContext,
  type FieldErrors,
  type OutboxEvent,
  type TenantId,
  tenantOf,
  withRevisionRetry,
} from '@travel/platform';
import {
  MAX_FILES_PER_UPLOAD,
  MAX_IMAGE_PIXELS,
  cleanFileName,
  isImageType,
  looksLikePdf,
  PDF_TYPE,
  tooManyPixels,
  type Attachment,
} from '../domain/attachment';
import type { AttachmentStore, ImageInspection } from '../infra/attachment-store';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import type { ReadingStore } from '../infra/reading-store';
import type { EntryAccess } from './entry-access';
import { NO_POLICY, type PolicyJudge } from './expense-policy';
import { EntryWrites } from './entry-writes';
import { SERVICE } from '../service-name';

export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/** The spec's key for errors of the attachments endpoint. */
const KEY = 'File';

export class AttachmentsApp {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries'>,
    private readonly access: EntryAccess,
    private readonly store: AttachmentStore,
    private readonly inspectImage: (bytes: Buffer, maxPixels: number) => Promise<ImageInspection>,
    private readonly readings: Pick<ReadingStore, 'remove'>,
    /** The expense policy's findings, stored with every write (docs/decisions/0203). */
    private readonly policy: PolicyJudge = NO_POLICY,
  ) {
    this.writes = new EntryWrites(repos);
  }

  private readonly writes: EntryWrites;

  /**
   * Every file checked (images decoded for real) before any is stored. Errors under `key` (`File` on the
   * attachments endpoint, `attachments` in an entry create); parts must be named `part`.
   */
  async checkFiles(files: UploadedFile[], key: string, part: string, required: boolean): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    const add = (message: string) => (errors[key] ??= []).push(message);
    if (required && files.length === 0) add(`at least one file is required (parts named "${part}")`);
    if (files.length > MAX_FILES_PER_UPLOAD) add(`at most ${MAX_FILES_PER_UPLOAD} files per request`);
    await Promise.all(
      files.map(async (f, i) => {
        const name = `file ${i + 1} (${cleanFileName(f.originalname)})`;
        if (f.fieldname !== part) add(`${name}: send files in parts named "${part}"`);
        else if (f.size === 0) add(`${name}: is empty`);
        else if (isImageType(f.mimetype)) {
          const image = await this.inspectImage(f.buffer, MAX_IMAGE_PIXELS);
          if (image === 'undecodable') add(`${name}: declared ${f.mimetype} but cannot be decoded as an image`);
          else if (image !== 'decodes') add(`${name}: ${tooManyPixels(image.width, image.height)}`);
        } else if (f.mimetype === PDF_TYPE) {
          if (!looksLikePdf(f.buffer)) add(`${name}: declared ${PDF_TYPE} but is not a PDF`);
        } else add(`${name}: type ${f.mimetype} is not accepted (images and PDF only)`);
      }),
    );
    return errors;
  }

  /** Writes the bytes of checked files (before the entry write that makes them visible). */
  async stage(tenantId: string, entryId: string, files: UploadedFile[], now: Date): Promise<Attachment[]> {
    const added: Attachment[] = files.map((f) => ({
      _id: randomUUID(),
      fileName: cleanFileName(f.originalname),
      contentType: f.mimetype.toLowerCase(),
      size: f.size,
      createdAt: now,
    }));
    await Promise.all(
      added.map((a, i) =>
        this.store.put(a._id, files[i]!.buffer, {
          tenantId,
          entryId,
          fileName: a.fileName,
          contentType: a.contentType,
        }),
      ),
    );
    return added;
  }

  /** Removes staged bytes whose entry write did not happen. */
  async unstage(attachments: readonly Attachment[]): Promise<void> {
    await Promise.all(attachments.map((a) => this.store.remove(a._id)));
  }

  async upload(caller: CallerContext, entryId: string, files: UploadedFile[]): Promise<Attachment[]> {
    const entry = await this.access.writable(caller, entryId);
    const errors = await this.checkFiles(files, KEY, 'files', true);
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    // Bytes first, then the entry write that makes them visible; a failed write removes them again.
    const added = await this.stage(caller.tenantId, entry._id, files, new Date());
    try {
      await withRevisionRetry('travel entry', async () => {
        const current = await this.access.writable(caller, entryId);
        const now = new Date();
        return this.save(
          caller,
          current,
          [...(current.attachments ?? []), ...added],
          now,
          attachmentsStored(caller, current._id, added, now),
        );
      });
    } catch (err) {
      await this.unstage(added);
      throw err;
    }
    return added;
  }

  async download(caller: CallerContext, entryId: string, attachmentId: string) {
    const entry = await this.access.readable(caller, entryId);
    const attachment = (entry.attachments ?? []).find((a) => a._id === attachmentId.toLowerCase());
    if (!attachment) throw notFound('attachment');
    return { attachment, stream: this.store.open(attachment._id) };
  }

  /** An attachment of a live entry, by a service on the tenant's behalf (the receipts service); null: gone. */
  async stored(tenantId: TenantId, entryId: string, attachmentId: string) {
    const entry = await this.repos.entries.of(tenantId).get(entryId.toLowerCase());
    const attachment = entry?.deletedAt
      ? undefined
      : entry?.attachments?.find((a) => a._id === attachmentId.toLowerCase());
    return attachment ? { attachment, stream: this.store.open(attachment._id) } : null;
  }

  async delete(caller: CallerContext, entryId: string, attachmentId: string): Promise<void> {
    const id = attachmentId.toLowerCase();
    await withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, entryId);
      if (!(current.attachments ?? []).some((a) => a._id === id)) throw notFound('attachment');
      const now = new Date();
      const removed = raiseEvent(
        SERVICE,
        'attachment.removed',
        caller.tenantId,
        { entryId: current._id, attachmentId: id },
        now,
      );
      return this.save(
        caller,
        current,
        current.attachments.filter((a) => a._id !== id),
        now,
        [removed],
      );
    });
    // Its reading goes with it (a reading made meanwhile is dropped by the projection: ReadingsApp.project).
    await this.readings.remove(tenantOf(caller), id);
    await this.store.remove(id);
  }

  private async save(
    caller: CallerContext,
    current: EntryDoc,
    attachments: Attachment[],
    now: Date,
    extra: OutboxEvent[],
  ): Promise<true | undefined> {
    // A removed attachment is no longer any expense's receipt (docs/decisions/0204).
    const kept = new Set(attachments.map((a) => a._id));
    const expenses = (current.expenses ?? []).map((x) =>
      (x.receiptAttachmentIds ?? []).every((id) => kept.has(id))
        ? x
        : { ...x, receiptAttachmentIds: (x.receiptAttachmentIds ?? []).filter((id) => kept.has(id)) },
    );
    const after: EntryDoc = { ...current, attachments, expenses, editedAt: now };
    const policyFindings = await this.policy.findingsFor(caller, after);
    await this.writes.apply(tenantOf(caller), current, {
      set: { attachments, expenses, policyFindings, editedAt: now },
      announce: 'entry.updated',
      at: now,
      also: extra,
    });
    return true;
  }
}

/**
 * `entries.attachment.stored` for each stored image or PDF (every accepted attachment is one): the receipts
 * service reads it in the background, with the company's market as its hint (docs/decisions/0200).
 */
export function attachmentsStored(
  caller: Pick<CallerContext, 'tenantId' | 'market'>,
  entryId: string,
  added: readonly Attachment[],
  now: Date,
): OutboxEvent[] {
  return added
    .filter((a) => isImageType(a.contentType) || a.contentType === PDF_TYPE)
    .map((a) =>
      raiseEvent(
        SERVICE,
        'attachment.stored',
        caller.tenantId,
        { entryId, attachmentId: a._id, contentType: a.contentType, size: a.size, market: caller.market },
        now,
      ),
    );
}
