// A FerretDB and a RabbitMQ for one benchmark run only, built and configured exactly as the test
// profile's (the same start functions), on ports no test run uses; the shared .local/test/infra.json is
// left alone. Used by bench/infra-run.ts (--isolated-infra: fixed ports, the test profile's + 10) and by
// bench/e2e.ts (free ports, so it can run beside another benchmark's isolated servers).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFerretDb } from '../../packages/testkit/src/infra/ferretdb';
import type { Infra } from '../../packages/testkit/src/infra/infra';
import type { ManagedProcess } from '../../packages/testkit/src/infra/processes';
import { startRabbitMq, type RabbitPorts } from '../../packages/testkit/src/infra/rabbitmq';
import { portOpen } from '../../packages/testkit/src/infra/wait';

export interface IsolatedPorts {
  mongo: number;
  rabbit: RabbitPorts;
}

export async function isolatedInfra(
  stateDir: string,
  ports: IsolatedPorts,
  options: { root: string; rabbitNode: string; label: string },
): Promise<Infra> {
  const busy = await Promise.all([ports.mongo, ports.rabbit.amqp, ports.rabbit.management].map((p) => portOpen(p)));
  if (busy.some(Boolean))
    throw new Error(
      `${options.label}: ports ${ports.mongo}/${ports.rabbit.amqp}/${ports.rabbit.management} are in use (another benchmark?)`,
    );
  // A clean store each time: nothing left over from an interrupted run.
  rmSync(join(stateDir, 'ferretdb'), { recursive: true, force: true });
  const started: ManagedProcess[] = [];
  try {
    console.log(`[infra] starting FerretDB (SQLite) on 127.0.0.1:${ports.mongo} for the benchmark only`);
    started.push(await startFerretDb(options.root, stateDir, ports.mongo));
    console.log(
      `[infra] starting RabbitMQ on 127.0.0.1:${ports.rabbit.amqp} (management :${ports.rabbit.management}) for the benchmark only`,
    );
    started.push(await startRabbitMq(stateDir, options.rabbitNode, ports.rabbit));
  } catch (err) {
    for (const p of started.reverse()) await p.stop();
    throw err;
  }
  return {
    mongoUrl: `mongodb://127.0.0.1:${ports.mongo}`,
    amqpUrl: `amqp://guest:guest@127.0.0.1:${ports.rabbit.amqp}`,
    managementUrl: `http://127.0.0.1:${ports.rabbit.management}`,
    source: `FerretDB and RabbitMQ started for this run only (${options.label})`,
    async stop() {
      for (const p of started.reverse()) await p.stop();
    },
  };
}
