import { parseTenantId, type Swept } from '@travel/platform';
import type { AttachmentStore, StoredFile } from '../infra/attachment-store';
import type { EntriesRepositories } from '../infra/repositories';

/** The `store` label of the sweep's metrics. */
export const ATTACHMENTS_STORE = 'attachments';

/**
 * The orphan sweep of attachment bytes (docs/decisions/0114): a file uploaded before `cutoff` is deleted
 * when the entry named in its metadata does not list it (the entry write after the upload never
 * happened, or the attachment was removed and the bytes' delete died), and so are chunks left without a
 * file. An entry soft-deleted still lists its attachments: their bytes stay.
 */
export function attachmentSweep(store: AttachmentStore, repos: Pick<EntriesRepositories, 'entries'>) {
  return async (cutoff: Date): Promise<Swept> => {
    const swept: Swept = { files: 0, bytes: 0 };
    for await (const batch of store.storedBefore(cutoff)) {
      // A file without a tenant or entry in its metadata cannot be checked: it stays.
      const byTenant = new Map<string, StoredFile[]>();
      for (const f of batch)
        if (f.tenantId && f.entryId) byTenant.set(f.tenantId, [...(byTenant.get(f.tenantId) ?? []), f]);
      for (const [tenantId, files] of byTenant) {
        const entries = await repos.entries
          .of(parseTenantId(tenantId))
          .find({ _id: { $in: [...new Set(files.map((f) => f.entryId!))] } }, { 'attachments._id': 1 })
          .lean<Array<{ attachments?: Array<{ _id: string }> }>>();
        const listed = new Set(entries.flatMap((e) => (e.attachments ?? []).map((a) => a._id)));
        for (const file of files.filter((f) => !listed.has(f.id))) {
          // Counted only when this run removed it (another replica may sweep at the same time).
          if (!(await store.remove(file.id))) continue;
          swept.files++;
          swept.bytes += file.bytes;
        }
      }
    }
    const chunks = await store.removeChunksWithoutFile(cutoff);
    return { files: swept.files + chunks.files, bytes: swept.bytes + chunks.bytes };
  };
}
