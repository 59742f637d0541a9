// One service of a benchmark (bench/api-reads.ts, bench/e2e.ts, bench/lib/reliability) in its own process,
// so each has its own event loop, its CPU and memory can be measured apart, and it can be killed, as in
// production:
//   BENCH_ROLE=employees     the employees service (its `start`), plus `seed` over IPC;
//   BENCH_ROLE=entries       the entries service (its `start`), EMPLOYEES_URL and REFERENCE_FX_URL set;
//   BENCH_ROLE=reference-fx  the reference-fx service (FX_SEED_DIR: the recorded feeds);
//   BENCH_ROLE=payouts       the payouts service (its `start`), ENTRIES_URL and EMPLOYEES_URL set;
//   BENCH_ROLE=fleet         the fleet service (its `start`), EMPLOYEES_URL set;
//   BENCH_ROLE=gateway       the gateway (its `start`), EMPLOYEES_URL (and the others it routes to) set;
//   BENCH_ROLE=bare       a bare express answering the JSON bodies in BENCH_BODIES (path → body), the ceiling;
//                         with BENCH_CALLER, also the gateway's key lookup (so a gateway can run over it);
//   BENCH_ROLE=min-proxy  the least a Node proxy does (bench/lib/min-proxy.ts) in front of UPSTREAM_URL.
// IPC: child → { type: 'ready', url, pid }; parent → { type: 'profile-start' | 'profile-stop', file } |
// { type: 'seed', employees } | { type: 'seed-employees', tenantId, count } (employees only: `count` employees
// inserted straight into the store, for the delta-sync scenario; answers their ids) | { type: 'commands' } (employees only: store commands sent so far, by name,
// from the driver's command monitoring) | { type: 'stop' }. SIGTERM: the same stop, then exit (a rollout's step).
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector';
import express from 'express';
import { start as startEmployees } from '../../services/employees/src/service';
import { createTenant } from '../../services/employees/src/app/tenants';
import { employeesRepositories } from '../../services/employees/src/infra/repositories';
import { emailKeyOf } from '../../services/employees/src/domain/employee';
import { start as startEntries } from '../../services/entries/src/service';
import { start as startFleet } from '../../services/fleet/src/service';
import { start as startGateway } from '../../services/gateway/src/service';
import { start as startPayouts } from '../../services/payouts/src/service';
import { start as startReferenceFx } from '../../services/reference-fx/src/service';
import { startMinimalProxy } from './min-proxy';
import { stopAsRunMainDoes } from './child-lifecycle';

const role = process.env.BENCH_ROLE;
let session: Session | undefined;
const post = (method: string, params?: object) =>
  new Promise<any>((resolve, reject) =>
    session!.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))),
  );

async function bare(): Promise<{ url: string; stop(): Promise<void> }> {
  const bodies = JSON.parse(process.env.BENCH_BODIES ?? '{}') as Record<string, string>;
  const app = express();
  // As the employees service answers the gateway's key lookup (for the gateway-over-bare target).
  const caller = process.env.BENCH_CALLER;
  if (caller)
    app.post('/internal/api-keys/resolve', (_req, res) => {
      res.type('application/json').send(caller);
    });
  for (const [path, body] of Object.entries(bodies))
    app.get(path, (_req, res) => {
      res.type('application/json').send(body);
    });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function main(): Promise<void> {
  let running: { url: string; stop(): Promise<void>; deps?: any };
  const commands: Record<string, number> = {};
  if (role === 'employees' && process.env.BENCH_COUNT_COMMANDS === 'true') {
    // The driver's command monitoring (a URI option), to count the store commands a request costs. Not on
    // for timed runs: the driver then also decodes every reply for the event.
    const url = new URL(process.env.MONGO_URL!);
    url.searchParams.set('monitorCommands', 'true');
    running = await startEmployees({ ...process.env, MONGO_URL: url.toString() });
    running.deps.mongo.getClient().on('commandStarted', (e: { commandName: string }) => {
      commands[e.commandName] = (commands[e.commandName] ?? 0) + 1;
    });
  } else if (role === 'employees') running = await startEmployees(process.env);
  else if (role === 'entries') running = await startEntries(process.env);
  else if (role === 'reference-fx') running = await startReferenceFx(process.env);
  else if (role === 'payouts') running = await startPayouts(process.env);
  else if (role === 'fleet') running = await startFleet(process.env);
  else if (role === 'gateway') running = await startGateway(process.env);
  else if (role === 'min-proxy') running = await startMinimalProxy(process.env.UPSTREAM_URL!);
  else running = await bare();
  process.on('message', async (m: { type: string; file?: string; employees?: number }) => {
    if (m.type === 'profile-start') {
      session = new Session();
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 500 });
      await post('Profiler.start');
      process.send!({ type: 'profile-started' });
    } else if (m.type === 'profile-stop') {
      const { profile } = await post('Profiler.stop');
      writeFileSync(m.file!, JSON.stringify(profile));
      session!.disconnect();
      process.send!({ type: 'profile-stopped' });
    } else if (m.type === 'seed') {
      const created = await createTenant(employeesRepositories(running.deps.mongo), { name: 'Bench', market: 'CZ' });
      process.send!({ type: 'seeded', apiKey: created.apiKey, tenantId: created.tenantId });
    } else if (m.type === 'seed-employees') {
      const { tenantId, count } = m as unknown as { tenantId: string; count: number };
      const scope = employeesRepositories(running.deps.mongo).employees.of(tenantId as never);
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1000) {
        const now = new Date();
        const docs = Array.from({ length: Math.min(1000, count - i) }, (_, j) => {
          const _id = randomUUID();
          ids.push(_id);
          const n = i + j;
          return {
            _id,
            firstName: `Sync${n}`,
            lastName: 'Bench',
            email: null,
            emailKey: emailKeyOf({ _id, email: null }),
            status: 'Active',
            isArchived: false,
            isAccountOwner: false,
            costCenterIds: [],
            permissions: [],
            rev: 0,
            createdAt: now,
            editedAt: now,
          };
        });
        await scope.insertMany(docs as never);
      }
      process.send!({ type: 'seeded-employees', ids });
    } else if (m.type === 'commands') {
      process.send!({ type: 'commands', commands: { ...commands } });
    } else if (m.type === 'stop') {
      await running.stop();
      process.send!({ type: 'stopped' });
      process.exit(0);
    }
  });
  stopAsRunMainDoes(running);
  process.send!({ type: 'ready', url: running.url, opsUrl: (running as { opsUrl?: string }).opsUrl, pid: process.pid });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
