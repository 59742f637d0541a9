// With OpenTelemetry running (as in production), a partner still receives exactly the spec's headers:
// no trace context leaks into webhook POSTs.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import amqp from 'amqplib';
import { DOMAIN_EXCHANGE } from '@travel/platform';
import {
  createTestEnv,
  ensureTestTls,
  childPorts,
  HttpsReceiver,
  productionLikeEnv,
  repoRoot,
  waitReady,
  type TestEnv,
} from '@travel/testkit';
import { employeeEvent } from './support/harness';

describe('webhook headers with tracing on', () => {
  let env: TestEnv;
  let child: ChildProcess | undefined;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    env = await createTestEnv('headers');
    receiver = await new HttpsReceiver(ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'))).start();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await receiver?.stop();
    await env?.cleanup();
  });

  it('sends exactly the spec headers (plus transport ones), no traceparent', async () => {
    const ports = await childPorts();
    const root = repoRoot();
    // Tracing fully on, as in production: an OTLP endpoint (one that refuses connections: spans are dropped).
    const vars = productionLikeEnv({
      ...env.vars,
      ...ports.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    delete vars.OTEL_SDK_DISABLED;
    // The built service (scripts/test-run.ts builds once per run), as production runs it: plain node,
    // third-party modules loaded through require, which is what OpenTelemetry's instrumentations hook.
    child = spawn('node', [join(root, 'services', 'webhook-dispatcher', 'dist', 'main.js')], {
      env: vars,
      stdio: 'ignore',
    });
    await waitReady(ports.opsUrl);

    const tenantId = randomUUID();
    const headers = env.callerHeaders({ tenantId, permissions: ['ManageCompanyData'] });
    const reg = await fetch(`${ports.url}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, eventTypes: ['employee.created'] }),
    });
    expect(reg.status).toBe(201);

    const conn = await amqp.connect(env.amqpUrl);
    const ch = await conn.createConfirmChannel();
    const event = employeeEvent(tenantId);
    // A traceparent on the bus message, as a traced producer would send: it must not reach the partner.
    ch.publish(DOMAIN_EXCHANGE, 'employees.employee.created', Buffer.from(JSON.stringify(event)), {
      persistent: true,
      messageId: event.id,
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    await ch.waitForConfirms();
    await conn.close();

    const [req] = await receiver.waitForRequests(1);
    expect(Object.keys(req!.headers).sort()).toEqual(
      [
        'connection',
        'content-length',
        'content-type',
        'host',
        'svc-delivery-id',
        'svc-event',
        'svc-event-id',
        'svc-signature',
        'user-agent',
      ].sort(),
    );
  });
});
