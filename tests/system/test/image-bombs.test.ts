// Decompression bombs (issue 20, §5): a PNG of about 10 MiB whose image data is deflated zeros and whose
// header declares 50,000 × 50,000 pixels is refused with 400 (errors.File) within a second by the entries
// attachments route and the fleet documents route, and the service's peak memory grows by less than
// 50 MiB (docs/decisions/0114). Entries and fleet run in processes of their own, so
// their peak RSS (VmHWM, reset before each upload) is theirs alone; the uploads go straight to their routes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Z_FULL_FLUSH, crc32, deflateRawSync } from 'node:zlib';
import { urlEnv } from '@travel/contracts';
import type { RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { ApiClient, createTestEnv, childPorts, repoRoot, waitReady, type TestEnv } from '@travel/testkit';
import { png } from '@travel/fleet/test/support/sample-files';
import { tenantMaker } from './support/stack-parts';

const MiB = 1024 * 1024;

/**
 * A PNG just under 10 MiB: IHDR declares `side` × `side` RGB pixels, one IDAT holds a zlib stream of
 * zeros (about 10 GiB once inflated), built from one compressed MiB of zeros repeated (a full flush makes
 * each MiB compress to the same bytes), every checksum correct.
 */
function zerosPng(side: number, fileBytes = 10 * MiB - 4096): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body, crc32(head.subarray(4))));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const mib = deflateRawSync(Buffer.alloc(MiB), { finishFlush: Z_FULL_FLUSH });
  const repeats = Math.floor((fileBytes - 100) / mib.length);
  // Adler-32 of n zero bytes: a = 1, b = n (mod 65521).
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((repeats * MiB) % 65521) << 16) | 1);
  const zlib = Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    Buffer.alloc(mib.length * repeats).fill(mib),
    Buffer.from([0x03, 0x00]), // an empty final block
    adler,
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Resets the process's peak resident memory to its current one (Linux), and reads both, in bytes. */
const memory = {
  resetPeak: (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
  read(pid: number): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  },
};

describe('decompression bombs', () => {
  let env: TestEnv;
  let employees: RunningService;
  let gateway: { url: string; stop(): Promise<void> };
  const children: ChildProcess[] = [];
  let fleet: ChildProcess;
  let entries: ChildProcess;
  let api: ApiClient;
  let owner: { tenantId: string; employeeId: string };
  const urls: Record<string, string> = {};
  const bomb = zerosPng(50_000);

  /** A service in a process of its own (`npm start` runs it so). */
  async function child(service: string, vars: Record<string, string | undefined>) {
    const ports = await childPorts();
    const proc = spawn('node', ['--import', 'tsx', join(repoRoot(), 'services', service, 'src', 'main.ts')], {
      cwd: repoRoot(),
      env: { ...vars, ...ports.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr!.on('data', (d) => process.stderr.write(`[${service}] ${d}`));
    children.push(proc);
    await waitReady(ports.opsUrl, 60_000);
    return { proc, url: ports.url };
  }

  beforeAll(async () => {
    env = await createTestEnv('image-bombs', { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '0' });
    const vars = { ...process.env, ...env.vars };
    employees = await startEmployees(vars);
    const f = await child('fleet', { ...vars, ...urlEnv({ employees: employees.url }) });
    const e = await child('entries', { ...vars, ...urlEnv({ employees: employees.url, fleet: f.url }) });
    [fleet, entries] = [f.proc, e.proc];
    [urls.fleet, urls.entries] = [f.url, e.url];
    gateway = await startGateway({ ...vars, ...urlEnv({ employees: employees.url, fleet: f.url, entries: e.url }) });
    const tenant = await tenantMaker(employees, gateway, 'Bombs', 'CZ')();
    [api, owner] = [tenant.api, { tenantId: tenant.tenantId, employeeId: tenant.employeeId }];
  }, 120_000);
  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM');
    await gateway?.stop();
    await employees?.stop();
    await env?.cleanup();
  });

  /** The multipart body of one PNG part, encoded before any clock starts. */
  async function multipart(bytes: Buffer) {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'scan.png');
    const encoded = new Response(form);
    return { type: encoded.headers.get('content-type')!, body: Buffer.from(await encoded.arrayBuffer()) };
  }

  /** Straight to the service's route, as the gateway forwards it for the tenant's owner. */
  async function upload(service: string, path: string, part: { type: string; body: Buffer }) {
    const res = await fetch(`${urls[service]}${path}`, {
      method: 'POST',
      headers: {
        ...env.callerHeaders({ ...owner, permissions: ['ManageVehicles', 'ReadAllEntries'] }),
        'content-type': part.type,
      },
      body: part.body,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  /** Uploads the bomb once the service has handled a small PNG (its code paths warm), measuring it. */
  async function uploadBomb(service: string, proc: ChildProcess, path: string) {
    expect((await upload(service, path, await multipart(png(40, 30)))).status).toBe(201);
    const part = await multipart(bomb);
    memory.resetPeak(proc.pid!);
    const before = memory.read(proc.pid!);
    const started = Date.now();
    const res = await upload(service, path, part);
    const ms = Date.now() - started;
    const grewMiB = (memory.read(proc.pid!).peak - before.rss) / MiB;
    return { ...res, ms, grewMiB };
  }

  it('builds a bomb of about 10 MiB declaring 50,000 × 50,000 pixels', () => {
    expect(bomb.length).toBeGreaterThan(9.9 * MiB);
    expect(bomb.length).toBeLessThanOrEqual(10 * MiB);
    expect(bomb.readUInt32BE(16)).toBe(50_000);
    expect(bomb.readUInt32BE(20)).toBe(50_000);
  });

  it('fleet documents: 400 under errors.File within a second, peak memory up by less than 50 MiB', async () => {
    const vehicle = await api.post('/api/v1/vehicles', { type: 'Company', name: 'Van', category: 1 });
    expect(vehicle.status).toBe(201);
    const res = await uploadBomb('fleet', fleet, `/api/v1/vehicles/${vehicle.body.id}/documents`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.File.join(' ')).toContain('50000 × 50000 pixels');
    expect(res.ms).toBeLessThan(1000);
    expect(res.grewMiB).toBeLessThan(50);
  });

  it('entries attachments: 400 under errors.File within a second, peak memory up by less than 50 MiB', async () => {
    const entry = await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' });
    expect(entry.status).toBe(201);
    const res = await uploadBomb('entries', entries, `/api/v1/travel-entries/${entry.body.id}/attachments`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.File.join(' ')).toContain('50000 × 50000 pixels');
    expect(res.ms).toBeLessThan(1000);
    expect(res.grewMiB).toBeLessThan(50);
  });
});
