// The ceiling of the dispatch benchmark (issue 7): a bare signing HTTPS client against the same receiver.
// No store, no broker: sign the envelope (the dispatcher's signing function), POST it with the
// dispatcher's headers through a keep-alive agent of the dispatcher's size (32 sockets), `concurrency`
// requests in flight, for `seconds`. Reports completed requests per second and their latency.
// Run in its own process, as the dispatcher is, so the two compete for the same cores the same way.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:https';
import { sign } from '../../packages/webhook-verify/src/signature';

interface Ask {
  type: 'run';
  port: number;
  seconds: number;
  concurrency: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 32, maxFreeSockets: 32, timeout: 30_000 });
const secret = `whsec_${'ab'.repeat(32)}`;

function post(port: number): Promise<number> {
  const started = performance.now();
  const id = randomUUID();
  const body = Buffer.from(
    JSON.stringify({
      id,
      type: 'employee.created',
      createdAt: new Date().toISOString(),
      data: { employeeId: randomUUID(), name: 'Bench Ceiling', status: 'Active', department: 'Sales' },
    }),
  );
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: 'localhost',
        port,
        path: '/b/0/0',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': body.length,
          'svc-event': 'employee.created',
          'svc-event-id': id,
          'svc-signature': sign(body, secret, Math.floor(Date.now() / 1000)),
          'svc-delivery-id': randomUUID(),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function run(a: Ask) {
  const latencies: number[] = [];
  const until = performance.now() + a.seconds * 1000;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: a.concurrency }, async () => {
      while (performance.now() < until) latencies.push(await post(a.port));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((x, y) => x - y);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    cpuCores: (cpu.user + cpu.system) / 1e6 / seconds,
  };
}

process.on('message', (m: Ask) => {
  if (m.type !== 'run') return;
  run(m).then(
    (result) => process.send?.({ type: 'ceiling', ...result }),
    (err: Error) => process.send?.({ type: 'ceiling', error: err.message }),
  );
});
process.send?.({ type: 'ready' });
