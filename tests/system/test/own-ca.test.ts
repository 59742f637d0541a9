// Issue 9, item 5: `npm start` used to replace a user's NODE_EXTRA_CA_CERTS with the local CA, so a
// receiver with its own CA (mkcert, a company CA) failed every attempt with "unable to verify the first
// certificate". The dispatcher now gets one bundle with both (`extraCaCertsEnv`, used by scripts/stack.ts).
// Proved with a dispatcher process started with that environment, delivering through the gateway to a
// receiver of the user's own CA and to one of the local CA.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { verify } from '@travel/webhook-verify';
import type { RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { createTenant } from '@travel/employees/src/app/tenants';
import { employeesRepositories } from '@travel/employees/src/infra/repositories';
import { start as startGateway } from '@travel/gateway/src/service';
import {
  ApiClient,
  createTestEnv,
  ensureTestTls,
  extraCaCertsEnv,
  childPorts,
  HttpsReceiver,
  repoRoot,
  waitReady,
  type TestEnv,
  type TlsMaterial,
} from '@travel/testkit';

const execFileAsync = promisify(execFile);

/** What a fresh Node process with this NODE_EXTRA_CA_CERTS gets from an HTTPS GET: a status or an error code. */
async function probe(url: string, extraCa: string): Promise<string> {
  const script = `require('https').get(process.argv[1], (r) => { console.log(r.statusCode); r.resume(); })
    .on('error', (e) => console.log(e.code || e.message));`;
  // Asynchronous: the receivers answer from this very process.
  const { stdout } = await execFileAsync('node', ['-e', script, url], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: extraCa },
    timeout: 20_000,
  });
  return stdout.trim();
}

describe("npm start trusts the user's NODE_EXTRA_CA_CERTS and the local CA", () => {
  let dir: string;
  let user: TlsMaterial;
  let local: TlsMaterial;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'own-ca-'));
    user = ensureTestTls(join(dir, 'user'), { caName: 'Partner Company Root CA' });
    local = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('extraCaCertsEnv', () => {
    it('uses the local CA alone when the user names no file (or the local CA itself)', () => {
      const bundle = join(dir, 'bundle-none.pem');
      expect(extraCaCertsEnv(local.caFile, undefined, bundle)).toEqual({ NODE_EXTRA_CA_CERTS: local.caFile });
      expect(extraCaCertsEnv(local.caFile, '', bundle)).toEqual({ NODE_EXTRA_CA_CERTS: local.caFile });
      expect(extraCaCertsEnv(local.caFile, local.caFile, bundle)).toEqual({ NODE_EXTRA_CA_CERTS: local.caFile });
    });

    it("writes one bundle with the user's certificates and the local CA", () => {
      const bundle = join(dir, 'sub', 'bundle.pem');
      expect(extraCaCertsEnv(local.caFile, user.caFile, bundle)).toEqual({ NODE_EXTRA_CA_CERTS: bundle });
      const text = readFileSync(bundle, 'utf8');
      expect(text).toBe(
        `${readFileSync(user.caFile, 'utf8').trimEnd()}\n${readFileSync(local.caFile, 'utf8').trimEnd()}\n`,
      );
      expect(text.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(2);
    });

    it('keeps the local CA and says why when the user file is missing or holds no certificate', () => {
      const missing = extraCaCertsEnv(local.caFile, join(dir, 'nope.pem'), join(dir, 'b1.pem'));
      expect(missing.NODE_EXTRA_CA_CERTS).toBe(local.caFile);
      expect(missing.warning).toMatch(/nope\.pem cannot be read/);
      writeFileSync(join(dir, 'empty.pem'), 'not a certificate\n');
      const empty = extraCaCertsEnv(local.caFile, join(dir, 'empty.pem'), join(dir, 'b2.pem'));
      expect(empty).toEqual({
        NODE_EXTRA_CA_CERTS: local.caFile,
        warning: `NODE_EXTRA_CA_CERTS=${join(dir, 'empty.pem')} holds no PEM certificate; trusting only the local CA`,
      });
    });

    it("makes a new Node process trust a receiver of the user's CA that the local CA alone does not", async () => {
      const own = await new HttpsReceiver(user).start();
      const ours = await new HttpsReceiver(local).start();
      try {
        const bundle = extraCaCertsEnv(local.caFile, user.caFile, join(dir, 'probe.pem')).NODE_EXTRA_CA_CERTS;
        // What npm start did before: the local CA replaced the user's.
        expect(await probe(own.url, local.caFile)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
        expect(await probe(own.url, bundle)).toBe('200');
        expect(await probe(ours.url, bundle)).toBe('200');
      } finally {
        await own.stop();
        await ours.stop();
      }
    });
  });

  describe('end to end through the gateway', () => {
    let env: TestEnv;
    let child: ChildProcess | undefined;
    let employees: RunningService | undefined;
    let gateway: { url: string; stop(): Promise<void> } | undefined;
    const receivers: HttpsReceiver[] = [];

    beforeAll(async () => {
      env = await createTestEnv('own-ca');
      const ports = await childPorts();
      const trust = extraCaCertsEnv(local.caFile, user.caFile, join(dir, 'stack-bundle.pem'));
      // The dispatcher as its own process, so NODE_EXTRA_CA_CERTS is read at its start, as npm start runs it.
      child = spawn('node', ['--import', 'tsx', join(repoRoot(), 'services', 'webhook-dispatcher', 'src', 'main.ts')], {
        cwd: repoRoot(),
        env: { ...process.env, ...env.vars, ...ports.env, ...trust },
        stdio: 'ignore',
      });
      await waitReady(ports.opsUrl, 60_000);
      const vars = { ...process.env, ...env.vars };
      employees = await startEmployees(vars);
      gateway = await startGateway({
        ...vars,
        EMPLOYEES_URL: employees.url,
        WEBHOOK_DISPATCHER_URL: ports.url,
      });
    }, 90_000);
    afterAll(async () => {
      await Promise.all(receivers.map((r) => r.stop()));
      await gateway?.stop();
      await employees?.stop();
      child?.kill('SIGTERM');
      await env?.cleanup();
    });

    it("delivers to a receiver of the user's own CA and to one of the local CA", async () => {
      const tenant = await createTenant(employeesRepositories(employees!.deps.mongo), { name: 'Own CA', market: 'SI' });
      const api = new ApiClient(gateway!.url, tenant.apiKey);
      const own = await new HttpsReceiver(user).start();
      const ours = await new HttpsReceiver(local).start();
      receivers.push(own, ours);
      const secrets: string[] = [];
      for (const r of [own, ours]) {
        const sub = await api.post('/api/v1/webhooks', { url: r.url, eventTypes: ['employee.created'] });
        expect(sub.status).toBe(201);
        secrets.push(sub.body.signingSecret);
      }
      const created = await api.post('/api/v1/employees', { firstName: 'Ana', lastName: 'Novak' });
      expect(created.status).toBe(201);

      for (const [i, r] of [own, ours].entries()) {
        const [req] = await r.waitForRequests(1, 20_000);
        const { envelope } = verify(req!.body, req!.headers as Record<string, string>, secrets[i]!);
        expect(envelope).toMatchObject({ type: 'employee.created', data: { id: created.body.id } });
      }
    });
  });
});
