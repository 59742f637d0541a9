import { createHash, randomUUID } from 'node:crypto';
import {
  AppError,
  TenantScope,
  findOwned,
  notFound,
  paginate,
  type CallerContext,
  type FieldErrors,
  type PageRequest,
} from '@travel/platform';
import { toDocumentResponse, type VehicleDocument } from '../domain/document';
import { MAX_FILES_PER_REQUEST, checkDocumentBytes, cleanFileName } from '../domain/document-file';
import type { FleetModels } from '../infra/models';
import type { VehiclesApp } from './vehicles';

/** One uploaded part, as the HTTP layer hands it over. */
export interface UploadedFile {
  originalName?: string;
  bytes: Buffer;
}

/** The spec's error key for files (SPEC Errors; API-SURFACE Multipart). */
const FILE_KEY = 'File';

export type DocumentResponse = ReturnType<typeof toDocumentResponse>;

export class DocumentsApp {
  constructor(
    private readonly models: FleetModels,
    private readonly vehicles: VehiclesApp,
  ) {}

  async list(caller: CallerContext, vehicleId: string, page: PageRequest) {
    const vehicle = await this.vehicles.visible(caller, vehicleId);
    return paginate<VehicleDocument, DocumentResponse>(
      new TenantScope<VehicleDocument>(this.models.VehicleDocument, caller.tenantId),
      { vehicleId: vehicle._id },
      page,
      { uploadedAt: -1, _id: 1 },
      toDocumentResponse,
    );
  }

  /** Checks every file first; stores them only when all are valid (contents first, then metadata). */
  async upload(
    caller: CallerContext,
    vehicleId: string,
    files: UploadedFile[],
  ): Promise<{ items: DocumentResponse[] }> {
    const vehicle = await this.vehicles.visible(caller, vehicleId);
    const errors: FieldErrors = {};
    if (files.length === 0) errors[FILE_KEY] = ['at least one file (a part named files) is required'];
    if (files.length > MAX_FILES_PER_REQUEST)
      errors[FILE_KEY] = [`at most ${MAX_FILES_PER_REQUEST} files per request, got ${files.length}`];
    const checked = files.map((f) => ({ f, result: checkDocumentBytes(f.bytes) }));
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
      await this.models.DocumentContent.create({ _id: doc._id, tenantId: caller.tenantId, data: checked[i]!.f.bytes });
    await this.models.VehicleDocument.insertMany(docs);
    return { items: docs.map(toDocumentResponse) };
  }

  private async document(caller: CallerContext, vehicleId: string, documentId: string): Promise<VehicleDocument> {
    const vehicle = await this.vehicles.visible(caller, vehicleId);
    const doc = await findOwned(this.models.VehicleDocument, documentId.toLowerCase(), caller.tenantId);
    if (!doc || doc.vehicleId !== vehicle._id) throw notFound('document');
    return doc;
  }

  async download(caller: CallerContext, vehicleId: string, documentId: string) {
    const doc = await this.document(caller, vehicleId, documentId);
    const content = await findOwned(this.models.DocumentContent, doc._id, caller.tenantId);
    if (!content) throw notFound('document');
    // A lean read gives the driver's Binary, not a Buffer.
    const data = content.data as unknown;
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from((data as { buffer: Uint8Array }).buffer);
    return { document: doc, bytes };
  }

  /** Metadata first, then the bytes: a crash in between leaves only unreachable bytes. */
  async delete(caller: CallerContext, vehicleId: string, documentId: string): Promise<void> {
    const doc = await this.document(caller, vehicleId, documentId);
    const res = await this.models.VehicleDocument.deleteOne({ _id: doc._id, tenantId: caller.tenantId });
    if (res.deletedCount === 0) throw notFound('document');
    await this.models.DocumentContent.deleteOne({ _id: doc._id, tenantId: caller.tenantId });
  }
}

/** After a vehicle is deleted its documents go with it (metadata first, then the bytes). */
export async function deleteDocumentsOf(models: FleetModels, tenantId: string, vehicleId: string): Promise<void> {
  const ids = (await models.VehicleDocument.find({ tenantId, vehicleId }, { _id: 1 }).lean()).map((d) => d._id);
  if (!ids.length) return;
  await models.VehicleDocument.deleteMany({ tenantId, _id: { $in: ids } });
  await models.DocumentContent.deleteMany({ tenantId, _id: { $in: ids } });
}
