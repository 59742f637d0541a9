import { createHash, randomUUID } from 'node:crypto';
import {
  AppError,
  notFound,
  listPage,
  parseTenantId,
  tenantOf,
  type Swept,
  type CallerContext,
  type FieldErrors,
  type ListRequest,
} from '@travel/platform';
import type { VehicleDocument } from '../domain/document';
import { MAX_FILES_PER_REQUEST, checkDocumentBytes, cleanFileName } from '../domain/document-file';
import type { FleetRepositories } from '../infra/repositories';
import type { VehicleAccess } from './vehicle-access';

/** One uploaded part, as the HTTP layer hands it over. */
export interface UploadedFile {
  originalName?: string;
  bytes: Buffer;
}

/** The spec's error key for files (SPEC Errors; API-SURFACE Multipart). */
const FILE_KEY = 'File';

export class DocumentsApp {
  constructor(
    private readonly repos: FleetRepositories,
    private readonly access: VehicleAccess,
  ) {}

  private scope(caller: CallerContext) {
    return this.repos.documents.of(tenantOf(caller));
  }

  /** Documents are never edited (uploaded, then deleted): delta sync goes by `uploadedAt` (0159). */
  async list(caller: CallerContext, vehicleId: string, page: ListRequest) {
    const vehicle = await this.access.visible(caller, vehicleId);
    return listPage<VehicleDocument, VehicleDocument>(
      this.scope(caller),
      { vehicleId: vehicle._id },
      page,
      { uploadedAt: -1, _id: 1 },
      (d) => d,
      { editedField: 'uploadedAt' },
    );
  }

  /** Checks every file first; stores them only when all are valid (contents first, then metadata). */
  async upload(caller: CallerContext, vehicleId: string, files: UploadedFile[]): Promise<{ items: VehicleDocument[] }> {
    const vehicle = await this.access.visible(caller, vehicleId);
    const errors: FieldErrors = {};
    if (files.length === 0) errors[FILE_KEY] = ['at least one file (a part named files) is required'];
    if (files.length > MAX_FILES_PER_REQUEST)
      errors[FILE_KEY] = [`at most ${MAX_FILES_PER_REQUEST} files per request, got ${files.length}`];
    const checked = await Promise.all(files.map(async (f) => ({ f, result: await checkDocumentBytes(f.bytes) })));
    for (const [i, { f, result }] of checked.entries())
      if (result.problem) (errors[FILE_KEY] ??= []).push(`${f.originalName ?? `file ${i + 1}`} ${result.problem}`);
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);

    const now = new Date();
    const docs: VehicleDocument[] = checked.map(({ f, result }) => ({
      _id: randomUUID(),
      tenantId: caller.tenantId,
      vehicleId: vehicle._id,
      fileName: cleanFileName(f.originalName, result.type!),
      contentType: result.type!,
      size: f.bytes.length,
      sha256: createHash('sha256').update(f.bytes).digest('hex'),
      uploadedAt: now,
      uploadedByEmployeeId: caller.employeeId,
    }));
    // Contents first: a crash before the metadata leaves bytes no one can reach, never a dangling document.
    for (const [i, doc] of docs.entries())
      await this.repos.documentContents
        .of(tenantOf(caller))
        .create({ _id: doc._id, data: checked[i]!.f.bytes, createdAt: now });
    await this.scope(caller).insertMany(docs);
    return { items: docs };
  }

  async download(caller: CallerContext, vehicleId: string, documentId: string) {
    const doc = await this.access.filedUnder(caller, vehicleId, 'documents', documentId);
    const content = await this.repos.documentContents.of(tenantOf(caller)).get(doc._id);
    if (!content) throw notFound('document');
    // A lean read gives the driver's Binary, not a Buffer.
    const data = content.data as unknown;
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from((data as { buffer: Uint8Array }).buffer);
    return { document: doc, bytes };
  }

  /** Metadata first, then the bytes: a crash in between leaves only unreachable bytes. */
  async delete(caller: CallerContext, vehicleId: string, documentId: string): Promise<void> {
    const doc = await this.access.filedUnder(caller, vehicleId, 'documents', documentId);
    const res = await this.scope(caller).deleteOne({ _id: doc._id });
    if (res.deletedCount === 0) throw notFound('document');
    await this.repos.documentContents.of(tenantOf(caller)).deleteOne({ _id: doc._id });
  }
}

/** The `store` label of the sweep's metrics. */
export const DOCUMENTS_STORE = 'vehicle_documents';

/**
 * The orphan sweep of document bytes (docs/decisions/0114): contents written before `cutoff` whose
 * metadata does not exist (the upload died between the two writes, or a delete between its two).
 */
export function documentContentSweep(repos: FleetRepositories) {
  return async (cutoff: Date): Promise<Swept> => {
    const swept: Swept = { files: 0, bytes: 0 };
    for (let after = ''; ;) {
      const batch = await repos.contentsWrittenBefore(cutoff, after, 500);
      if (!batch.length) return swept;
      after = batch[batch.length - 1]!._id;
      const byTenant = new Map<string, string[]>();
      for (const c of batch) byTenant.set(c.tenantId, [...(byTenant.get(c.tenantId) ?? []), c._id]);
      for (const [tenantId, ids] of byTenant) {
        const tenant = parseTenantId(tenantId);
        const described = new Set(
          (
            await repos.documents
              .of(tenant)
              .find({ _id: { $in: ids } }, { _id: 1 })
              .lean()
          ).map((d) => d._id),
        );
        for (const id of ids.filter((i) => !described.has(i))) {
          // Counted only when this run removed it (another replica may sweep at the same time).
          const bytes = await repos.removeContent(tenant, id);
          if (bytes === null) continue;
          swept.files++;
          swept.bytes += bytes;
        }
      }
    }
  };
}
