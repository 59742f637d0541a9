// At-least-once across a crash: the dispatcher process is killed (SIGKILL) while POSTs are in flight
// and started again. Every event still arrives; a repeat carries the same event id and the same bytes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import amqp from 'amqplib';
import { DOMAIN_EXCHANGE } from '@travel/platform';
import {
  createTestEnv,
  ensureTestTls,
  eventually,
  childPorts,
  HttpsReceiver,
  repoRoot,
  waitReady,
  type TestEnv,
} from '@travel/testkit';
import { employeeEvent, verified } from './support/harness';

describe('dispatcher crash', () => {
  let env: TestEnv;
  let child: ChildProcess | undefined;
  let receiver: HttpsReceiver;
  let ports: Awaited<ReturnType<typeof childPorts>>;

  async function startChild() {
    const root = repoRoot();
    // `node --import tsx`: the process killed below is the dispatcher itself, not a wrapper around it.
    child = spawn('node', ['--import', 'tsx', join(root, 'services', 'webhook-dispatcher', 'src', 'main.ts')], {
      cwd: root,
      env: { ...process.env, ...env.vars, ...ports.env },
      stdio: 'ignore',
    });
    await waitReady(ports.opsUrl);
  }

  beforeAll(async () => {
    env = await createTestEnv('crash', { WEBHOOK_TIMEOUT_MS: '10000' });
    ports = await childPorts();
    receiver = await new HttpsReceiver(ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'))).start();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await receiver?.stop();
    await env?.cleanup();
  });

  it('loses nothing when killed mid-delivery; repeats carry the same event id and bytes', async () => {
    await startChild();
    const tenantId = randomUUID();
    const headers = env.callerHeaders({ tenantId, permissions: ['ManageCompanyData'] });
    const reg = await fetch(`${ports.url}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, eventTypes: ['employee.created'] }),
    });
    expect(reg.status).toBe(201);
    const { id: subscriptionId, signingSecret } = (await reg.json()) as { id: string; signingSecret: string };

    // Until the crash, the receiver holds every request open (well inside the 10 s time-out).
    let crashed = false;
    receiver.replyWith(() => (crashed ? { status: 200 } : { status: 200, delayMs: 20_000 }));

    const conn = await amqp.connect(env.amqpUrl);
    const ch = await conn.createConfirmChannel();
    const events = Array.from({ length: 5 }, () => employeeEvent(tenantId));
    for (const e of events)
      ch.publish(DOMAIN_EXCHANGE, `employees.${e.type}`, Buffer.from(JSON.stringify(e)), {
        persistent: true,
        messageId: e.id,
      });
    await ch.waitForConfirms();
    await conn.close();

    await receiver.waitForRequests(5, 15_000);
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    crashed = true;
    const beforeRestart = receiver.requests.length;

    await startChild();
    const deliveries = await eventually(async () => {
      const res = await fetch(`${ports.url}/api/v1/webhooks/${subscriptionId}/deliveries?pageSize=100`, {
        headers,
      });
      const body = (await res.json()) as { items: Array<{ status: string; eventId: string }> };
      return body.items.length === 5 && body.items.every((d) => d.status === 'Succeeded') ? body.items : undefined;
    }, 30_000);

    expect(new Set(deliveries.map((d) => d.eventId))).toEqual(new Set(events.map((e) => e.id)));
    expect(receiver.requests.length).toBeGreaterThan(beforeRestart);
    const byEvent = new Map<string, Buffer[]>();
    for (const req of receiver.requests) {
      const { eventId } = verified(req, signingSecret);
      byEvent.set(eventId, [...(byEvent.get(eventId) ?? []), req.body]);
    }
    expect([...byEvent.keys()].sort()).toEqual(events.map((e) => e.id).sort());
    const repeated = [...byEvent.values()].filter((bodies) => bodies.length > 1);
    expect(repeated.length).toBeGreaterThan(0);
    for (const bodies of repeated) for (const b of bodies) expect(b.equals(bodies[0]!)).toBe(true);
  });
});
