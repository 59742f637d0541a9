// A webhook dispatcher in its own process, started exactly as the test harness starts one
// (its `start` with an isolated vhost and database), so its CPU can be measured apart from the
// benchmark and the receiver. Controlled over IPC by bench/webhook-dispatch.ts:
//   parent → { type: 'stats' } | { type: 'stop' };  child → { type: 'ready' | 'stats' | 'stopped', ... }
// With BENCH_MONITOR=1 it also counts every store command (driver command monitoring) and every broker
// publish, which is how the profile run attributes round trips to deliveries.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { start as startDispatcher } from '../../services/webhook-dispatcher/src/service';
import type { DispatcherStats, OpStat } from './protocol';
import { stopAsRunMainDoes } from './child-lifecycle';

const monitor = process.env.BENCH_MONITOR === '1';

class OpStats {
  private readonly ops = new Map<string, { count: number; totalMs: number; samples: number[] }>();
  add(key: string, ms: number): void {
    let s = this.ops.get(key);
    if (!s) this.ops.set(key, (s = { count: 0, totalMs: 0, samples: [] }));
    s.count++;
    s.totalMs += ms;
    if (s.samples.length < 50_000) s.samples.push(ms);
  }
  snapshot(): Record<string, OpStat> {
    const out: Record<string, OpStat> = {};
    for (const [key, s] of this.ops) {
      const sorted = [...s.samples].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
      out[key] = { count: s.count, totalMs: Math.round(s.totalMs), p50Ms: at(0.5), p95Ms: at(0.95) };
    }
    return out;
  }
}

async function main(): Promise<void> {
  const running = await startDispatcher(process.env);
  let store = new OpStats();
  let broker = new OpStats();
  let session: Session | undefined;
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) =>
      session!.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))),
    );

  if (monitor) {
    const client = running.deps.mongo.getClient();
    const started = new Map<number, string>();
    client.on('commandStarted', (e) => {
      const target = e.command?.[e.commandName];
      started.set(e.requestId, `${e.commandName} ${typeof target === 'string' ? target : ''}`.trim());
    });
    const done = (e: { requestId: number; duration: number; commandName: string }, failed: boolean) => {
      const key = started.get(e.requestId) ?? e.commandName;
      started.delete(e.requestId);
      store.add(failed ? `${key} (failed)` : key, e.duration);
    };
    client.on('commandSucceeded', (e) => done(e, false));
    client.on('commandFailed', (e) => done(e, true));

    const amqp = running.deps.amqp;
    const publish = amqp.publish.bind(amqp);
    amqp.publish = (exchange, routingKey, body, options) => {
      const t0 = performance.now();
      const key = exchange ? `${exchange} ${routingKey}` : `(default) ${routingKey}`;
      return publish(exchange, routingKey, body, options).finally(() => broker.add(key, performance.now() - t0));
    };
  }

  const counter = (name: string) => running.deps.metrics.registry.getSingleMetric(name);

  async function stats(): Promise<DispatcherStats> {
    const elu = performance.eventLoopUtilization();
    const values = async (name: string) => {
      const metric = counter(name);
      if (!metric) return [];
      return (await metric.get()).values.map((v) => ({ labels: v.labels as Record<string, string>, value: v.value }));
    };
    return {
      type: 'stats',
      eluActiveMs: elu.active,
      eluIdleMs: elu.idle,
      attempts: await values('webhook_delivery_attempts_total'),
      handled: await values('amqp_messages_handled_total'),
      rssMb: Math.round(process.memoryUsage().rss / 1048576),
      ...(monitor ? { store: store.snapshot(), broker: broker.snapshot() } : {}),
    };
  }

  process.on('message', (msg: { type: string; file?: string }) => {
    if (msg.type === 'stats') void stats().then((s) => process.send?.(s));
    if (msg.type === 'stats-reset') {
      store = new OpStats();
      broker = new OpStats();
      process.send?.({ type: 'stats-reset' });
    }
    // A CPU profile of exactly the measured window (the inspector's sampler, as node --cpu-prof uses).
    if (msg.type === 'profile-start') {
      session = new Session();
      session.connect();
      void post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: 500 }))
        .then(() => post('Profiler.start'))
        .then(() => process.send?.({ type: 'profile-started' }));
    }
    if (msg.type === 'profile-stop' && session) {
      void post('Profiler.stop').then(({ profile }) => {
        writeFileSync(msg.file!, JSON.stringify(profile));
        session!.disconnect();
        session = undefined;
        process.send?.({ type: 'profile-stopped' });
      });
    }
    if (msg.type === 'stop') {
      void running.stop().finally(() => {
        process.send?.({ type: 'stopped' });
        setTimeout(() => process.exit(0), 50);
      });
    }
  });
  stopAsRunMainDoes(running);
  process.send?.({ type: 'ready', url: running.url, opsUrl: running.opsUrl, pid: process.pid });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
