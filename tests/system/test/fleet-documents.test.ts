// Vehicle documents through the gateway (issue 11): multipart upload of PDFs and images checked by their
// bytes (undecodable files are 400 under errors.File, never 500; SPEC Errors), list, download, delete;
// ManageVehicles for writes; invisible or another company's vehicle is 404.
import { createHash } from 'node:crypto';
import type { ApiClient } from '@travel/testkit';
import { limitedCaller, MISSING_ID } from '@travel/employees/test/support/org-fixtures';
import { jpeg, pdf, png } from '@travel/fleet/test/support/sample-files';
import { startFleetStack, type FleetStack } from './support/fleet-stack';

const DOCUMENT_KEYS = [
  'contentType',
  'fileName',
  'id',
  'sha256',
  'size',
  'uploadedAt',
  'uploadedByEmployeeId',
  'vehicleId',
];

function form(...files: [string, Buffer, string?][]): FormData {
  const f = new FormData();
  for (const [name, bytes, type] of files)
    f.append('files', new Blob([new Uint8Array(bytes)], { type: type ?? 'application/octet-stream' }), name);
  return f;
}

describe('vehicle documents', () => {
  let stack: FleetStack;
  let api: ApiClient;
  let ownerId: string;
  let ownerKey: string;
  let vehicleId: string;

  beforeAll(async () => {
    stack = await startFleetStack('fleet-documents');
    const t = await stack.tenant('SI');
    api = t.api;
    ownerId = t.employeeId;
    ownerKey = t.apiKey;
    vehicleId = (await api.post('/api/v1/vehicles', { type: 'Company', name: 'Van', category: 1 })).body.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('upload a PDF, a PNG and a JPEG; list them; download the exact bytes; delete', async () => {
    const files: [string, Buffer][] = [
      ['registration.pdf', pdf()],
      ['photo.png', png(4, 3)],
      ['C:\\scans\\policy.jpg', jpeg()],
    ];
    const up = await api.post(`/api/v1/vehicles/${vehicleId}/documents`, form(...files));
    expect(up.status).toBe(201);
    expect(up.body.items).toHaveLength(3);
    expect(Object.keys(up.body.items[0]).sort()).toEqual(DOCUMENT_KEYS);
    expect(up.body.items.map((d: any) => [d.fileName, d.contentType, d.size])).toEqual([
      ['registration.pdf', 'application/pdf', files[0]![1].length],
      ['photo.png', 'image/png', files[1]![1].length],
      ['policy.jpg', 'image/jpeg', files[2]![1].length],
    ]);
    expect(up.body.items[0]).toMatchObject({
      vehicleId,
      uploadedByEmployeeId: ownerId,
      sha256: createHash('sha256').update(files[0]![1]).digest('hex'),
    });

    const list = await api.get(`/api/v1/vehicles/${vehicleId}/documents`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 });

    for (const [i, doc] of up.body.items.entries()) {
      const res = await fetch(`${stack.gateway.url}/api/v1/vehicles/${vehicleId}/documents/${doc.id}`, {
        headers: { authorization: `Bearer ${ownerKey}` }, // raw bytes: the API client reads bodies as text
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(doc.contentType);
      expect(res.headers.get('content-disposition')).toContain(doc.fileName);
      expect(Buffer.from(await res.arrayBuffer()).equals(files[i]![1])).toBe(true);
    }

    expect((await api.delete(`/api/v1/vehicles/${vehicleId}/documents/${up.body.items[0].id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/vehicles/${vehicleId}/documents/${up.body.items[0].id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/vehicles/${vehicleId}/documents`)).body.total).toBe(2);
  });

  it('files that are not PDF or images, or do not decode, are 400 under errors.File and nothing is stored', async () => {
    const before = (await api.get(`/api/v1/vehicles/${vehicleId}/documents`)).body.total;
    const broken = png();
    broken[broken.length - 20] ^= 0xff;
    const bad: [string, Buffer, string][] = [
      ['notes.txt', Buffer.from('just text'), 'text/plain'],
      ['fake.png', Buffer.from('not really a png'), 'image/png'], // the declared type does not count
      ['truncated.jpg', jpeg().subarray(0, 12), 'image/jpeg'],
      ['corrupt.png', broken, 'image/png'],
      ['cut.pdf', pdf().subarray(0, 15), 'application/pdf'],
      ['empty.pdf', Buffer.alloc(0), 'application/pdf'],
    ];
    for (const file of bad) {
      const res = await api.post(`/api/v1/vehicles/${vehicleId}/documents`, form(['ok.pdf', pdf()], file));
      expect({ file: file[0], status: res.status, keys: Object.keys(res.body.errors ?? {}) }).toEqual({
        file: file[0],
        status: 400,
        keys: ['File'],
      });
      expect(res.body.errors.File.join(' ')).toContain(file[0]);
    }
    expect((await api.get(`/api/v1/vehicles/${vehicleId}/documents`)).body.total).toBe(before);
  });

  it('one to five files per request; other parts are 400; a file over 10 MiB is 413', async () => {
    const six = Array.from({ length: 6 }, (_, i) => [`p${i}.pdf`, pdf()] as [string, Buffer]);
    const tooMany = await api.post(`/api/v1/vehicles/${vehicleId}/documents`, form(...six));
    expect(tooMany.status).toBe(400);
    // The contract states the maximum (maxItems 5, decision 0107), so its validator answers, keyed by the part.
    expect(Object.keys(tooMany.body.errors)).toEqual(['files']);
    const none = await api.post(`/api/v1/vehicles/${vehicleId}/documents`, new FormData());
    expect(none.status).toBe(400);
    const other = new FormData();
    other.append('attachment', new Blob([new Uint8Array(pdf())]), 'x.pdf');
    expect((await api.post(`/api/v1/vehicles/${vehicleId}/documents`, other)).status).toBe(400);
    const huge = Buffer.concat([pdf(), Buffer.alloc(10 * 1024 * 1024)]);
    const big = await api.post(`/api/v1/vehicles/${vehicleId}/documents`, form(['big.pdf', huge]));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('ManageVehicles for upload and delete (ManageCompanyData is not enough); readers may list and download', async () => {
    const doc = (await api.post(`/api/v1/vehicles/${vehicleId}/documents`, form(['a.pdf', pdf()]))).body.items[0];
    const reader = await limitedCaller(api, ['ManageCompanyData']);
    expect((await reader.api.get(`/api/v1/vehicles/${vehicleId}/documents`)).status).toBe(200);
    expect((await reader.api.get(`/api/v1/vehicles/${vehicleId}/documents/${doc.id}`)).status).toBe(200);
    expect((await reader.api.post(`/api/v1/vehicles/${vehicleId}/documents`, form(['b.pdf', pdf()]))).status).toBe(403);
    expect((await reader.api.delete(`/api/v1/vehicles/${vehicleId}/documents/${doc.id}`)).status).toBe(403);
    const fleet = await limitedCaller(api, ['FleetManager']);
    expect((await fleet.api.post(`/api/v1/vehicles/${vehicleId}/documents`, form(['b.pdf', pdf()]))).status).toBe(201);
    expect((await fleet.api.delete(`/api/v1/vehicles/${vehicleId}/documents/${doc.id}`)).status).toBe(204);
  });

  it("another company's vehicle or document is 404; documents go with their deleted vehicle", async () => {
    const other = await stack.tenant('CZ');
    const theirs = (await other.api.post('/api/v1/vehicles', { type: 'Company', name: 'Theirs', category: 1 })).body.id;
    const theirDoc = (await other.api.post(`/api/v1/vehicles/${theirs}/documents`, form(['t.pdf', pdf()]))).body
      .items[0];
    expect((await api.get(`/api/v1/vehicles/${theirs}/documents`)).status).toBe(404);
    expect((await api.post(`/api/v1/vehicles/${theirs}/documents`, form(['x.pdf', pdf()]))).status).toBe(404);
    expect((await api.get(`/api/v1/vehicles/${theirs}/documents/${theirDoc.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/vehicles/${theirs}/documents/${theirDoc.id}`)).status).toBe(404);
    // Under the wrong vehicle, or unknown, a document is 404 too.
    expect((await api.get(`/api/v1/vehicles/${vehicleId}/documents/${theirDoc.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/vehicles/${vehicleId}/documents/${MISSING_ID}`)).status).toBe(404);

    const v = (await api.post('/api/v1/vehicles', { type: 'Company', name: 'Short-lived', category: 1 })).body.id;
    const d = (await api.post(`/api/v1/vehicles/${v}/documents`, form(['d.pdf', pdf()]))).body.items[0];
    expect((await api.delete(`/api/v1/vehicles/${v}`)).status).toBe(204);
    const models = stack.fleet.deps.mongo.db!;
    expect(await models.collection('vehicle_documents').countDocuments({ _id: d.id } as never)).toBe(0);
    expect(await models.collection('vehicle_document_contents').countDocuments({ _id: d.id } as never)).toBe(0);
  });
});
