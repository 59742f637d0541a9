// The stack the reliability harness (faults and soak) and the replicas test run on: a FerretDB and a
// RabbitMQ of the run's own (bench/lib/isolated-infra.ts, free ports: never the shared test servers, which
// the fault harness kills) or, for a run that kills neither, the shared test servers; the HTTPS receiver
// (bench/lib/receiver-process.ts, test CA) and, each replica in its own process on ports fixed for the
// whole run (so a restarted one is found where the others expect it):
//   reference-fx, employees, entries, payouts, fleet   (bench/lib/api-process.ts),
//   webhook-dispatcher                                  (bench/lib/dispatcher-process.ts),
//   gateway                                             (bench/lib/api-process.ts), routing to the others.
// Callers are given a service's replicas as a comma-separated list (docs/decisions/0214) and spread over
// them. kill(name, i) sends SIGKILL to one replica, restart(name, i) starts it again with the same settings.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { urlEnv, type UpstreamName } from '../../../contracts/src/services';
import { createTestEnv, testInfra, type TestEnv } from '../../../packages/testkit/src/env';
import { repoRoot, testInfraEnv } from '../../../packages/testkit/src/infra/infra';
import { freeListenPort } from '../../../packages/testkit/src/processes';
import { ensureTestTls } from '../../../packages/testkit/src/tls';
import { ask, Receiver, startServiceChild, waitForExit, type ServiceChild } from '../children';
import { isolatedInfra, type IsolatedInfra } from '../isolated-infra';
import { pidListeningOn } from '../system';

/** Every service the stack can run, in start order (the gateway, which routes to the others, last). */
export const ALL_SERVICES = [
  'reference-fx',
  'employees',
  'fleet',
  'entries',
  'payouts',
  'webhook-dispatcher',
  'gateway',
] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];
/** The services the stack runs behind the gateway. */
type Upstream = Exclude<ServiceName, 'gateway'> & UpstreamName;
/** What the fault harness runs (the default). */
export const SERVICES = [
  'reference-fx',
  'employees',
  'entries',
  'webhook-dispatcher',
  'gateway',
] as const satisfies readonly ServiceName[];

/** The services each one calls (its upstream variables); the gateway routes to every other one running. */
const CALLS: Partial<Record<ServiceName, readonly Upstream[]>> = {
  entries: ['employees', 'reference-fx', 'fleet'],
  payouts: ['entries', 'employees'],
  fleet: ['employees'],
  // Health notices go to the account owners (docs/decisions/0229).
  'webhook-dispatcher': ['employees'],
};

/** The shared test servers as the stack's infrastructure: never killed, never stopped by the stack. */
function sharedInfra(): IsolatedInfra {
  const refuse = () => Promise.reject(new Error('the shared test servers are never stopped or killed'));
  return {
    ...testInfra(),
    source: 'shared test servers',
    stop: () => Promise.resolve(),
    killStore: refuse,
    startStore: refuse,
    stopBroker: refuse,
    startBroker: refuse,
  };
}

const ROOT = repoRoot();

function replicasOf(name: ServiceName, replicas: StackOptions['replicas']): number {
  return typeof replicas === 'number' ? replicas : (replicas?.[name] ?? 1);
}

export interface StackOptions {
  /** A directory of this run's own (store data, broker node). */
  stateDir: string;
  /** Variables every service gets on top of the test env's. */
  serviceEnv: Record<string, string>;
  /** How long a slow receiver takes to answer. */
  slowMs: number;
  log: (line: string) => void;
  /** The services to run (default SERVICES); the gateway needs employees. */
  services?: readonly ServiceName[];
  /** Processes of each service (default 1), each on its own ports; a map gives some services another count. */
  replicas?: number | Partial<Record<ServiceName, number>>;
  /**
   * `isolated` (default): a FerretDB and a RabbitMQ of the run's own, which a fault may kill. `shared`: the
   * test servers jest's global set-up started (a run in a test file that kills neither).
   */
  infra?: 'isolated' | 'shared';
}

/** One replica's ports. */
export interface ReplicaPorts {
  port: number;
  opsPort: number;
}

export class ReliabilityStack {
  /** The running process of each replica, by service (index i: replica i). */
  readonly children = new Map<ServiceName, ServiceChild[]>();
  /** Every service log of this run (.local/bench/logs/<name>.log), one per start. */
  readonly logFiles: string[] = [];
  private generation = 0;

  private constructor(
    readonly infra: IsolatedInfra,
    readonly env: TestEnv,
    readonly receiver: Receiver,
    readonly services: readonly ServiceName[],
    readonly ports: Partial<Record<ServiceName, ReplicaPorts[]>>,
    readonly amqpPort: number,
    private readonly caFile: string,
    private readonly options: StackOptions,
  ) {}

  static async start(options: StackOptions): Promise<ReliabilityStack> {
    const tlsDir = join(ROOT, '.local', 'test', 'tls');
    const tls = ensureTestTls(tlsDir);
    mkdirSync(options.stateDir, { recursive: true });
    const infraPorts = {
      mongo: await freeListenPort(),
      rabbit: { amqp: await freeListenPort(), management: await freeListenPort(), dist: await freeListenPort() },
    };
    const shared = options.infra === 'shared';
    const infra = shared
      ? sharedInfra()
      : await isolatedInfra(options.stateDir, infraPorts, {
          root: ROOT,
          rabbitNode: `rabbit-rel-${process.pid}@localhost`,
          label: 'reliability harness',
          log: options.log,
        });
    let receiver: Receiver | undefined;
    try {
      // createTestEnv reads the TEST_* URLs: this run's servers, for the time of the call only (a jest
      // worker keeps the shared ones for the next test file).
      const infraEnv = shared ? {} : testInfraEnv(infra, tls.caFile);
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
      const services = ALL_SERVICES.filter((name) => (options.services ?? SERVICES).includes(name));
      const ports: Partial<Record<ServiceName, ReplicaPorts[]>> = {};
      for (const name of services) {
        ports[name] = [];
        for (let i = 0; i < replicasOf(name, options.replicas); i++)
          ports[name].push({ port: await freeListenPort(), opsPort: await freeListenPort() });
      }
      const amqpPort = shared ? Number(new URL(infra.amqpUrl).port) : infraPorts.rabbit.amqp;
      const stack = new ReliabilityStack(infra, env, receiver, services, ports, amqpPort, tls.caFile, options);
      // A service's replicas start side by side, the services one after another (all at once starve each
      // other on a small machine), the gateway last. A stack that did not start leaves no process behind.
      for (const name of services) {
        const started = await Promise.allSettled(stack.ports[name]!.map((_, i) => stack.restart(name, i)));
        const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (!failed) continue;
        for (const replicas of stack.children.values()) for (const c of replicas) c.proc.kill('SIGKILL');
        throw failed.reason;
      }
      return stack;
    } catch (err) {
      await receiver?.stop();
      await infra.stop();
      throw err;
    }
  }

  /** One replica's base URL. */
  replicaUrl(name: ServiceName, i = 0): string {
    return `http://127.0.0.1:${this.ports[name]![i]!.port}`;
  }

  /** A service's base URL as its callers are given it: every replica's, separated by commas. */
  url(name: ServiceName): string {
    return this.ports[name]!.map((_, i) => this.replicaUrl(name, i)).join(',');
  }

  /** The gateway's first replica (partners' calls go there unless a test spreads them itself). */
  get gatewayUrl(): string {
    return this.replicaUrl('gateway');
  }

  /** One replica's running process (the last one started), if any. */
  child(name: ServiceName, i = 0): ServiceChild | undefined {
    return this.children.get(name)?.[i];
  }

  /** The environment of one replica: the test env's, the harness's settings, its ports and upstreams. */
  private envOf(name: ServiceName, i: number): NodeJS.ProcessEnv {
    const { port, opsPort } = this.ports[name]![i]!;
    const running = (names: readonly Upstream[]) =>
      Object.fromEntries(names.filter((u) => this.ports[u]).map((u) => [u, this.url(u)]));
    const upstreams: Record<string, string> =
      name === 'gateway'
        ? urlEnv(running(this.services.filter((u): u is Upstream => u !== 'gateway')))
        : urlEnv(running(CALLS[name] ?? []));
    return {
      ...process.env,
      // The dispatcher trusts the test CA the receiver's certificate comes from.
      NODE_EXTRA_CA_CERTS: this.caFile,
      ...this.env.vars,
      ...(name === 'reference-fx'
        ? { FX_SEED_DIR: join(ROOT, 'services', 'reference-fx', 'test', 'fixtures', 'feeds') }
        : {}),
      ...upstreams,
      PORT: String(port),
      OPS_PORT: String(opsPort),
      BENCH_ROLE: name,
    };
  }

  /** Starts (or starts again) one replica on its ports; resolves when it is ready. */
  async restart(name: ServiceName, i = 0): Promise<ServiceChild> {
    const file = join(ROOT, 'bench', 'lib', name === 'webhook-dispatcher' ? 'dispatcher-process.ts' : 'api-process.ts');
    const logName = `rel-${process.pid}-${name}${i ? `-${i}` : ''}-${++this.generation}`;
    this.logFiles.push(join(ROOT, '.local', 'bench', 'logs', `${logName}.log`));
    const child = await startServiceChild(file, this.envOf(name, i), logName, name, 120_000);
    const replicas = this.children.get(name) ?? [];
    replicas[i] = child;
    this.children.set(name, replicas);
    return child;
  }

  /** SIGKILL to one replica: no shutdown hook runs, in-flight work is lost as in a crash. */
  async kill(name: ServiceName, i = 0): Promise<void> {
    const child = this.child(name, i);
    if (!child) return;
    child.proc.kill('SIGKILL');
    await waitForExit(child.proc, 10_000);
  }

  /** One replica's own orderly stop (what a rolling deploy does). */
  async stop(name: ServiceName, i = 0): Promise<void> {
    const child = this.child(name, i);
    if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
    await ask(child.proc, { type: 'stop' }, 'stopped', 20_000).catch(() => child.proc.kill('SIGKILL'));
    await waitForExit(child.proc, 10_000);
  }

  /** A tenant (createTenant in the employees process) and its owner's API key. */
  async seed(): Promise<{ apiKey: string; tenantId: string }> {
    return ask(this.child('employees')!.proc, { type: 'seed' }, 'seeded', 60_000);
  }

  /** Pids of every process whose memory the soak follows. */
  pids(): Record<string, number | undefined> {
    const out: Record<string, number | undefined> = {};
    for (const [name, replicas] of this.children) replicas.forEach((c, i) => (out[i ? `${name}-${i}` : name] = c.pid));
    out.ferretdb = pidListeningOn(Number(new URL(this.infra.mongoUrl).port));
    out.rabbitmq = pidListeningOn(this.amqpPort);
    out.receiver = this.receiver.pid;
    return out;
  }

  async shutdown(): Promise<void> {
    for (const name of [...this.services].reverse())
      await Promise.all(this.ports[name]!.map((_, i) => this.stop(name, i).catch(() => this.kill(name, i))));
    await this.receiver.stop();
    await this.infra.stop();
    if (this.options.infra === 'shared') return;
    // Nothing of the store or the broker is kept.
    for (const dir of ['ferretdb', 'rabbitmq'])
      rmSync(join(this.options.stateDir, dir), { recursive: true, force: true });
  }
}
