// A FerretDB and a RabbitMQ for one benchmark run only, built and configured exactly as the test
// profile's (the same start functions), on ports no test run uses; the shared .local/test/infra.json is
// left alone. Used by bench/infra-run.ts (--isolated-infra: fixed ports, the test profile's + 10), by
// bench/e2e.ts (free ports, so it can run beside another benchmark's isolated servers) and by the
// reliability harness (bench/lib/reliability), which also kills and restarts them: killStore() and
// stopBroker() end only the processes this object started, and the restarts keep the data directories.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFerretDb } from '../../packages/testkit/src/infra/ferretdb';
import { testInfraEnv, type Infra } from '../../packages/testkit/src/infra/infra';
import type { ManagedProcess } from '../../packages/testkit/src/infra/processes';
import { startRabbitMq, type RabbitPorts } from '../../packages/testkit/src/infra/rabbitmq';
import { portOpen } from '../../packages/testkit/src/infra/wait';
import { freePort } from '../../packages/testkit/src/processes';
import { pidListeningOn } from './system';

export interface IsolatedPorts {
  mongo: number;
  rabbit: RabbitPorts;
}

export interface IsolatedInfra extends Infra {
  /** SIGKILL to the store process (no shutdown of its own); its data directory stays. */
  killStore(): Promise<void>;
  /** The store again, on the same port and data directory. */
  startStore(): Promise<void>;
  /** The broker's own orderly stop (SIGTERM to its process group): a restart, not a pause. */
  stopBroker(): Promise<void>;
  /** The broker again: same node name, ports and data directory (durable queues, persistent messages). */
  startBroker(): Promise<void>;
}

export async function isolatedInfra(
  stateDir: string,
  ports: IsolatedPorts,
  options: { root: string; rabbitNode: string; label: string; log?: (line: string) => void },
): Promise<IsolatedInfra> {
  const say = options.log ?? ((line: string) => console.log(`[infra] ${line}`));
  const busy = await Promise.all([ports.mongo, ports.rabbit.amqp, ports.rabbit.management].map((p) => portOpen(p)));
  if (busy.some(Boolean))
    throw new Error(
      `${options.label}: ports ${ports.mongo}/${ports.rabbit.amqp}/${ports.rabbit.management} are in use (another benchmark?)`,
    );
  // A clean store each time: nothing left over from an interrupted run.
  rmSync(join(stateDir, 'ferretdb'), { recursive: true, force: true });
  let store: ManagedProcess | undefined;
  let broker: ManagedProcess | undefined;
  const startStore = async () => {
    say(`starting FerretDB (SQLite) on 127.0.0.1:${ports.mongo} for the benchmark only`);
    store = await startFerretDb(options.root, stateDir, ports.mongo);
  };
  const startBroker = async () => {
    say(
      `starting RabbitMQ on 127.0.0.1:${ports.rabbit.amqp} (management :${ports.rabbit.management}) for the benchmark only`,
    );
    broker = await startRabbitMq(stateDir, options.rabbitNode, ports.rabbit);
  };
  const stopAll = async () => {
    await broker?.stop();
    await store?.stop();
  };
  try {
    await startStore();
    await startBroker();
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    mongoUrl: `mongodb://127.0.0.1:${ports.mongo}`,
    amqpUrl: `amqp://guest:guest@127.0.0.1:${ports.rabbit.amqp}`,
    managementUrl: `http://127.0.0.1:${ports.rabbit.management}`,
    source: `FerretDB and RabbitMQ started for this run only (${options.label})`,
    stop: stopAll,
    async killStore() {
      const child = store?.child;
      if (!child || store?.exitReason()) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid!, 'SIGKILL');
      await gone;
    },
    startStore,
    async stopBroker() {
      await broker?.stop();
    },
    startBroker,
  };
}

/** A run's own servers on free ports, made the servers of this process (the TEST_* URLs), with their pids. */
export interface RunInfra {
  infra: IsolatedInfra;
  ports: IsolatedPorts;
  /** For the CPU figures (bench/lib/system.ts). */
  storePid: number | undefined;
  brokerPid: number | undefined;
}

/**
 * Starts a FerretDB and a RabbitMQ on free ports for one benchmark run (so it can run beside another's) and
 * points this process's TEST_* URLs at them; the services the run starts trust `caFile`, the test CA.
 */
export async function runInfraOnFreePorts(
  stateDir: string,
  caFile: string,
  options: { root: string; rabbitNode: string; label: string; log?: (line: string) => void },
): Promise<RunInfra> {
  const ports = {
    mongo: await freePort(),
    rabbit: { amqp: await freePort(), management: await freePort(), dist: await freePort() },
  };
  const infra = await isolatedInfra(stateDir, ports, options);
  Object.assign(process.env, testInfraEnv(infra, caFile));
  return { infra, ports, storePid: pidListeningOn(ports.mongo), brokerPid: pidListeningOn(ports.rabbit.amqp) };
}
