// The stack the reliability harness (faults and soak) runs on: a FerretDB and a RabbitMQ of the run's
// own (bench/lib/isolated-infra.ts, free ports: never the shared test servers, which this harness kills),
// the HTTPS receiver (bench/lib/receiver-process.ts, test CA) and, each in its own process on a port fixed
// for the whole run (so a restarted one is found where the others expect it):
//   reference-fx, employees, entries   (bench/lib/api-process.ts),
//   webhook-dispatcher                 (bench/lib/dispatcher-process.ts),
//   gateway                            (bench/lib/api-process.ts), routing to the four above.
// kill(name) sends SIGKILL to one service, restart(name) starts it again with the same settings.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { urlEnv } from '../../../contracts/src/services';
import { createTestEnv, type TestEnv } from '../../../packages/testkit/src/env';
import { repoRoot, testInfraEnv } from '../../../packages/testkit/src/infra/infra';
import { freePort } from '../../../packages/testkit/src/processes';
import { ensureTestTls } from '../../../packages/testkit/src/tls';
import { ask, Receiver, startServiceChild, waitForExit, type ServiceChild } from '../children';
import { isolatedInfra, type IsolatedInfra } from '../isolated-infra';
import { pidListeningOn } from '../system';

export const SERVICES = ['reference-fx', 'employees', 'entries', 'webhook-dispatcher', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

const ROOT = repoRoot();

export interface StackOptions {
  /** A directory of this run's own (store data, broker node). */
  stateDir: string;
  /** Variables every service gets on top of the test env's. */
  serviceEnv: Record<string, string>;
  /** How long a slow receiver takes to answer. */
  slowMs: number;
  log: (line: string) => void;
}

export class ReliabilityStack {
  readonly children = new Map<ServiceName, ServiceChild>();
  /** Every service log of this run (.local/bench/logs/<name>.log), one per start. */
  readonly logFiles: string[] = [];
  private generation = 0;

  private constructor(
    readonly infra: IsolatedInfra,
    readonly env: TestEnv,
    readonly receiver: Receiver,
    readonly ports: Record<ServiceName, { port: number; opsPort: number }>,
    readonly amqpPort: number,
    private readonly caFile: string,
    private readonly options: StackOptions,
  ) {}

  static async start(options: StackOptions): Promise<ReliabilityStack> {
    const tlsDir = join(ROOT, '.local', 'test', 'tls');
    const tls = ensureTestTls(tlsDir);
    mkdirSync(options.stateDir, { recursive: true });
    const infraPorts = {
      mongo: await freePort(),
      rabbit: { amqp: await freePort(), management: await freePort(), dist: await freePort() },
    };
    const infra = await isolatedInfra(options.stateDir, infraPorts, {
      root: ROOT,
      rabbitNode: `rabbit-rel-${process.pid}@localhost`,
      label: 'reliability harness',
      log: options.log,
    });
    let receiver: Receiver | undefined;
    try {
      // createTestEnv reads the TEST_* URLs: this run's servers, for the time of the call only (a jest
      // worker keeps the shared ones for the next test file).
      const infraEnv = testInfraEnv(infra, tls.caFile);
      const saved = Object.fromEntries(Object.keys(infraEnv).map((k) => [k, process.env[k]]));
      Object.assign(process.env, infraEnv);
      let env: TestEnv;
      try {
        env = await createTestEnv('reliability', options.serviceEnv);
      } finally {
        for (const [k, v] of Object.entries(saved))
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
      }
      receiver = await Receiver.start(tlsDir, { ...process.env, BENCH_SLOW_MS: String(options.slowMs) });
      const ports = {} as Record<ServiceName, { port: number; opsPort: number }>;
      for (const name of SERVICES) ports[name] = { port: await freePort(), opsPort: await freePort() };
      const stack = new ReliabilityStack(infra, env, receiver, ports, infraPorts.rabbit.amqp, tls.caFile, options);
      for (const name of SERVICES) await stack.restart(name);
      return stack;
    } catch (err) {
      await receiver?.stop();
      await infra.stop();
      throw err;
    }
  }

  url(name: ServiceName): string {
    return `http://127.0.0.1:${this.ports[name].port}`;
  }

  get gatewayUrl(): string {
    return this.url('gateway');
  }

  /** The environment of one service: the test env's, the harness's settings, its ports and upstreams. */
  private envOf(name: ServiceName): NodeJS.ProcessEnv {
    const { port, opsPort } = this.ports[name];
    const upstreams: Record<string, string> =
      name === 'entries'
        ? urlEnv({ employees: this.url('employees'), 'reference-fx': this.url('reference-fx') })
        : name === 'gateway'
          ? urlEnv({
              employees: this.url('employees'),
              entries: this.url('entries'),
              'reference-fx': this.url('reference-fx'),
              'webhook-dispatcher': this.url('webhook-dispatcher'),
            })
          : name === 'reference-fx'
            ? { FX_SEED_DIR: join(ROOT, 'services', 'reference-fx', 'test', 'fixtures', 'feeds') }
            : {};
    return {
      ...process.env,
      // The dispatcher trusts the test CA the receiver's certificate comes from.
      NODE_EXTRA_CA_CERTS: this.caFile,
      ...this.env.vars,
      ...upstreams,
      PORT: String(port),
      OPS_PORT: String(opsPort),
      BENCH_ROLE: name,
    };
  }

  /** Starts (or starts again) one service on its ports; resolves when it is ready. */
  async restart(name: ServiceName): Promise<ServiceChild> {
    const file = join(ROOT, 'bench', 'lib', name === 'webhook-dispatcher' ? 'dispatcher-process.ts' : 'api-process.ts');
    const logName = `rel-${process.pid}-${name}-${++this.generation}`;
    this.logFiles.push(join(ROOT, '.local', 'bench', 'logs', `${logName}.log`));
    const child = await startServiceChild(file, this.envOf(name), logName, name, 120_000);
    this.children.set(name, child);
    return child;
  }

  /** SIGKILL: no shutdown hook runs, in-flight work is lost as in a crash. */
  async kill(name: ServiceName): Promise<void> {
    const child = this.children.get(name);
    if (!child) return;
    child.proc.kill('SIGKILL');
    await waitForExit(child.proc, 10_000);
  }

  /** The service's own orderly stop (what a rolling deploy does). */
  async stop(name: ServiceName): Promise<void> {
    const child = this.children.get(name);
    if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
    await ask(child.proc, { type: 'stop' }, 'stopped', 20_000).catch(() => child.proc.kill('SIGKILL'));
    await waitForExit(child.proc, 10_000);
  }

  /** A tenant (createTenant in the employees process) and its owner's API key. */
  async seed(): Promise<{ apiKey: string; tenantId: string }> {
    return ask(this.children.get('employees')!.proc, { type: 'seed' }, 'seeded', 60_000);
  }

  /** Pids of every process whose memory the soak follows. */
  pids(): Record<string, number | undefined> {
    const out: Record<string, number | undefined> = {};
    for (const [name, c] of this.children) out[name] = c.pid;
    out.ferretdb = pidListeningOn(Number(new URL(this.infra.mongoUrl).port));
    out.rabbitmq = pidListeningOn(this.amqpPort);
    out.receiver = this.receiver.pid;
    return out;
  }

  async shutdown(): Promise<void> {
    for (const name of [...SERVICES].reverse()) await this.stop(name).catch(() => this.kill(name));
    await this.receiver.stop();
    await this.infra.stop();
    // Nothing of the store or the broker is kept.
    for (const dir of ['ferretdb', 'rabbitmq'])
      rmSync(join(this.options.stateDir, dir), { recursive: true, force: true });
  }
}
