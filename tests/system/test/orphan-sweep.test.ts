// Bytes a crash left without their record (issue 20, §7; docs/decisions/0114): attachment files in
// GridFS and vehicle-document contents that no record references are deleted by the daily sweep once
// older than the grace period, counted in orphaned_bytes_swept_total{store}; referenced files and an
// upload still in flight survive. Uploads go through the gateway; the crashes are left in the store.
import { randomUUID } from 'node:crypto';
import { mongo, type Connection } from 'mongoose';
import { crossTenant, startOrphanSweep, type RunningService } from '@travel/platform';
import { attachmentSweep } from '@travel/entries/src/app/orphan-attachments';
import { AttachmentStore } from '@travel/entries/src/infra/attachment-store';
import { registerModels as entriesModels } from '@travel/entries/src/infra/models';
import { entriesRepositories } from '@travel/entries/src/infra/repositories';
import { DOCUMENTS_STORE, documentContentSweep } from '@travel/fleet/src/app/documents';
import { registerModels as fleetModels } from '@travel/fleet/src/infra/models';
import { fleetRepositories } from '@travel/fleet/src/infra/repositories';
import { png } from '@travel/fleet/test/support/sample-files';
import { eventually, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const TEST_PROBE = crossTenant('test probe');
const HOURS_AGO = (h: number) => new Date(Date.now() - h * 3_600_000);

/** The service's own counter of swept bytes for one store (there from boot: the service runs the job). */
async function sweptBytes(service: RunningService, store: string): Promise<number> {
  const metric = service.deps.metrics.registry.getSingleMetric('orphaned_bytes_swept_total');
  const value = metric && (await metric.get()).values.find((v) => v.labels.store === store)?.value;
  if (value === undefined) throw new Error(`${service.name} runs no orphan sweep of ${store}`);
  return value;
}

/** Runs the service's sweep once, with its Metrics (the job the service runs daily). */
async function sweepOnce(service: RunningService, store: string, sweep: (cutoff: Date) => Promise<unknown>) {
  const job = startOrphanSweep({
    store,
    sweep: sweep as never,
    jobs: service.deps.jobs,
  });
  await job.stop();
  await job.run();
}

describe('orphaned bytes are swept', () => {
  let stack: EntriesStack;
  let api: ApiClient;
  let key: string;
  let tenantId: string;

  beforeAll(async () => {
    stack = await startEntriesStack('orphan-sweep', {}, { fleet: true });
    const t = await stack.tenant('CZ');
    [api, key, tenantId] = [t.api, t.apiKey, t.tenantId];
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function upload(path: string, name: string, bytes: Buffer) {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
    const res = await fetch(`${stack.gateway.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { items: Array<{ id: string }> }).items[0]!.id;
  }

  const download = async (path: string) =>
    fetch(`${stack.gateway.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('attachment bytes without their entry record go after the grace period, counted; referenced ones stay', async () => {
    const conn: Connection = stack.entries.deps.mongo;
    const files = conn.db!.collection<{ _id: string; uploadDate: Date; length: number }>('attachments.files');
    const chunks = conn.db!.collection('attachments.chunks');
    const entry = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' }))
      .body;
    const path = `/api/v1/travel-entries/${entry.id}/attachments`;
    const kept = png(8, 8);
    const keptId = await upload(path, 'kept.png', kept);
    // Deleted from the entry, but the process died before removing the bytes.
    const droppedId = await upload(path, 'dropped.png', png(6, 6));
    const { Entry } = entriesModels(conn);
    const stored = (await Entry.findOne({ _id: entry.id }, { attachments: 1 }, TEST_PROBE).lean())!;
    const remaining = stored.attachments.filter((a) => a._id !== droppedId);
    await Entry.updateOne({ _id: entry.id }, { $set: { attachments: remaining } }, TEST_PROBE);
    // Stored for an upload whose entry write never happened; and one still in flight (just written).
    const store = new AttachmentStore(conn);
    const meta = { tenantId, entryId: entry.id, fileName: 'x.png', contentType: 'image/png' };
    const [neverWritten, inFlight] = [randomUUID(), randomUUID()];
    await store.put(neverWritten, Buffer.alloc(3000, 1), meta);
    await store.put(inFlight, Buffer.alloc(2000, 2), meta);
    // Chunks of an upload that died before GridFS wrote its file document.
    await chunks.insertOne({
      _id: mongo.ObjectId.createFromTime(Math.floor(HOURS_AGO(2).getTime() / 1000)) as never,
      files_id: randomUUID(),
      n: 0,
      data: new mongo.Binary(Buffer.alloc(1000, 3)),
    });
    const old = [keptId, droppedId, neverWritten];
    await files.updateMany({ _id: { $in: old } }, { $set: { uploadDate: HOURS_AGO(2) } });
    const droppedBytes = (await files.findOne({ _id: droppedId }))!.length;

    const before = await sweptBytes(stack.entries, 'attachments');
    await sweepOnce(stack.entries, 'attachments', attachmentSweep(store, entriesRepositories(conn)));

    expect(await files.countDocuments({ _id: { $in: [droppedId, neverWritten] } })).toBe(0);
    expect(await chunks.countDocuments({ files_id: { $in: [droppedId, neverWritten] } })).toBe(0);
    expect(await files.countDocuments({ _id: inFlight })).toBe(1);
    // The service's counter: this run's bytes (the boot run found nothing old), however many runs overlap.
    await eventually(
      async () => (await sweptBytes(stack.entries, 'attachments')) - before === droppedBytes + 3000 + 1000,
    );
    const res = await download(`${path}/${keptId}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(kept)).toBe(true);
  });

  it('vehicle-document bytes without their metadata go after the grace period, counted; referenced ones stay', async () => {
    const fleet = stack.fleet!;
    const conn: Connection = fleet.deps.mongo;
    const { DocumentContent } = fleetModels(conn);
    const vehicle = (await api.post('/api/v1/vehicles', { type: 'Company', name: 'Van', category: 1 })).body;
    const path = `/api/v1/vehicles/${vehicle.id}/documents`;
    const kept = png(5, 5);
    const keptId = await upload(path, 'kept.png', kept);
    // Bytes whose metadata insert never happened (two hours ago, and just now: an upload in flight),
    // and bytes written before contents carried a date (their grace starts when the sweep first sees them).
    const [neverWritten, inFlight, undated] = [randomUUID(), randomUUID(), randomUUID()];
    await DocumentContent.create([
      { _id: neverWritten, tenantId, data: Buffer.alloc(4000, 1), createdAt: HOURS_AGO(2) },
      { _id: inFlight, tenantId, data: Buffer.alloc(1500, 2), createdAt: new Date() },
    ]);
    await DocumentContent.collection.insertOne({ _id: undated as never, tenantId, data: Buffer.alloc(700, 3) });
    await DocumentContent.updateOne({ _id: keptId, tenantId }, { $set: { createdAt: HOURS_AGO(2) } });

    const before = await sweptBytes(fleet, DOCUMENTS_STORE);
    await sweepOnce(fleet, DOCUMENTS_STORE, documentContentSweep(fleetRepositories(conn)));

    const left = async (id: string) => DocumentContent.countDocuments({ _id: id, tenantId });
    expect(await left(neverWritten)).toBe(0);
    expect(await left(inFlight)).toBe(1);
    expect(await left(undated)).toBe(1);
    await eventually(async () => (await sweptBytes(fleet, DOCUMENTS_STORE)) - before === 4000);
    const res = await download(`${path}/${keptId}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(kept)).toBe(true);
  });
});
