import { existsSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { startFerretDb } from './ferretdb';
import type { ManagedProcess } from './processes';
import { managementAuth, rabbitAnswers, startRabbitMq, type RabbitPorts } from './rabbitmq';
import { portOpen } from './wait';

export type Profile = 'dev' | 'test';

export interface Infra {
  mongoUrl: string;
  amqpUrl: string;
  /** RabbitMQ management API base URL (vhosts, queue depths); undefined for an external broker without one. */
  managementUrl?: string;
  /** How the servers were obtained, for the progress line. */
  source: string;
  stop(): Promise<void>;
}

const PORTS: Record<Profile, { mongo: number; rabbit: RabbitPorts }> = {
  dev: { mongo: 27017, rabbit: { amqp: 5672, management: 15672, dist: 25672 } },
  test: { mongo: 27027, rabbit: { amqp: 5682, management: 15682, dist: 25682 } },
};

export const repoRoot = (): string => resolve(__dirname, '..', '..', '..', '..');

const say = (line: string) => process.stdout.write(`[infra] ${line}\n`);

function dockerAnswers(): Promise<boolean> {
  const socketPath = process.env.DOCKER_HOST?.startsWith('unix://')
    ? process.env.DOCKER_HOST.slice(7)
    : '/var/run/docker.sock';
  if (!existsSync(socketPath)) return Promise.resolve(false);
  return new Promise((done) => {
    const req = request({ socketPath, path: '/_ping', timeout: 1000 }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/** Where a Docker engine answers, MongoDB and RabbitMQ come from testcontainers (not on this machine kind). */
async function fromContainers(): Promise<Infra> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const mongo = await new GenericContainer('mongo:7').withExposedPorts(27017).start();
  const rabbit = await new GenericContainer('rabbitmq:3.13-management')
    .withExposedPorts(5672, 15672)
    .withWaitStrategy(Wait.forLogMessage('Server startup complete'))
    .start();
  return {
    mongoUrl: `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}`,
    amqpUrl: `amqp://guest:guest@${rabbit.getHost()}:${rabbit.getMappedPort(5672)}`,
    managementUrl: `http://${rabbit.getHost()}:${rabbit.getMappedPort(15672)}`,
    source: 'testcontainers',
    async stop() {
      await Promise.all([mongo.stop(), rabbit.stop()]);
    },
  };
}

/**
 * Brings up a MongoDB-wire server and RabbitMQ for a profile, idempotently: MONGO_URL / AMQP_URL win;
 * servers already listening on the profile's ports are reused (and left running); otherwise FerretDB and
 * RabbitMQ start as local processes (or containers, where a Docker engine answers) and stop() ends them.
 */
export async function ensureInfra(profile: Profile, options: { useContainers?: boolean } = {}): Promise<Infra> {
  const root = repoRoot();
  const stateDir = join(root, '.local', profile);
  const ports = PORTS[profile];
  const external = { mongo: process.env.MONGO_URL, amqp: process.env.AMQP_URL };

  if (!external.mongo && !external.amqp && (options.useContainers ?? profile === 'test') && (await dockerAnswers())) {
    say('Docker engine found: starting MongoDB and RabbitMQ with testcontainers');
    return fromContainers();
  }

  const started: ManagedProcess[] = [];
  const sources: string[] = [];
  let mongoUrl = external.mongo;
  if (mongoUrl) sources.push('MongoDB from MONGO_URL');
  else if (await portOpen(ports.mongo)) {
    mongoUrl = `mongodb://127.0.0.1:${ports.mongo}`;
    sources.push(`MongoDB-wire server already on :${ports.mongo}`);
  } else {
    say(`starting FerretDB (SQLite) on 127.0.0.1:${ports.mongo}`);
    started.push(await startFerretDb(root, stateDir, ports.mongo));
    mongoUrl = `mongodb://127.0.0.1:${ports.mongo}`;
    sources.push('FerretDB started');
  }

  let amqpUrl = external.amqp;
  let managementUrl = process.env.AMQP_MANAGEMENT_URL;
  if (amqpUrl) sources.push('RabbitMQ from AMQP_URL');
  else {
    amqpUrl = `amqp://guest:guest@127.0.0.1:${ports.rabbit.amqp}`;
    managementUrl = `http://127.0.0.1:${ports.rabbit.management}`;
    if (await rabbitAnswers(ports.rabbit)) sources.push(`RabbitMQ already on :${ports.rabbit.amqp}`);
    else {
      say(`starting RabbitMQ on 127.0.0.1:${ports.rabbit.amqp} (management :${ports.rabbit.management})`);
      started.push(await startRabbitMq(stateDir, `rabbit-${profile}@localhost`, ports.rabbit));
      sources.push('RabbitMQ started');
    }
  }
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, 'infra.json'), JSON.stringify({ mongoUrl, amqpUrl, managementUrl }, null, 2));
  return {
    mongoUrl,
    amqpUrl,
    managementUrl,
    source: sources.join(', '),
    async stop() {
      for (const proc of started.reverse()) await proc.stop();
      if (started.length) rmSync(join(stateDir, 'infra.json'), { force: true });
    },
  };
}

/** The infra a running orchestrator (npm test / npm start) recorded, for processes it spawned. */
export function recordedInfra(
  profile: Profile,
): { mongoUrl: string; amqpUrl: string; managementUrl?: string } | undefined {
  const file = join(repoRoot(), '.local', profile, 'infra.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** Creates an isolated vhost (one per test file) and returns an AMQP URL for it. */
export async function createVhost(infra: Pick<Infra, 'amqpUrl' | 'managementUrl'>, vhost: string): Promise<string> {
  if (!infra.managementUrl)
    throw new Error('vhost isolation needs the RabbitMQ management API (set AMQP_MANAGEMENT_URL)');
  const headers = { authorization: managementAuth(), 'content-type': 'application/json' };
  const name = encodeURIComponent(vhost);
  let res = await fetch(`${infra.managementUrl}/api/vhosts/${name}`, { method: 'PUT', headers, body: '{}' });
  if (!res.ok) throw new Error(`creating vhost ${vhost}: ${res.status}`);
  res = await fetch(`${infra.managementUrl}/api/permissions/${name}/guest`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ configure: '.*', write: '.*', read: '.*' }),
  });
  if (!res.ok) throw new Error(`granting vhost ${vhost}: ${res.status}`);
  const url = new URL(infra.amqpUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function deleteVhost(infra: Pick<Infra, 'managementUrl'>, vhost: string): Promise<void> {
  if (!infra.managementUrl) return;
  await fetch(`${infra.managementUrl}/api/vhosts/${encodeURIComponent(vhost)}`, {
    method: 'DELETE',
    headers: { authorization: managementAuth() },
  });
}

/** Sets a policy on a vhost through the management API (e.g. the alternate exchange of `domain.events`). */
export async function setPolicy(
  infra: Pick<Infra, 'managementUrl'>,
  vhost: string,
  policy: { name: string; pattern: string; 'apply-to': string; definition: Record<string, unknown>; priority?: number },
): Promise<void> {
  if (!infra.managementUrl) throw new Error('policies need the RabbitMQ management API (set AMQP_MANAGEMENT_URL)');
  const { name, ...body } = policy;
  const res = await fetch(
    `${infra.managementUrl}/api/policies/${encodeURIComponent(vhost)}/${encodeURIComponent(name)}`,
    {
      method: 'PUT',
      headers: { authorization: managementAuth(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  if (!res.ok) throw new Error(`setting policy ${name} on ${vhost}: ${res.status} ${await res.text()}`);
}

/** Messages ready in a queue of a vhost, via the management API (for tests and benchmarks). */
export async function queueDepth(infra: Pick<Infra, 'managementUrl'>, vhost: string, queue: string): Promise<number> {
  const res = await fetch(
    `${infra.managementUrl}/api/queues/${encodeURIComponent(vhost)}/${encodeURIComponent(queue)}`,
    {
      headers: { authorization: managementAuth() },
    },
  );
  if (!res.ok) return 0;
  return ((await res.json()) as { messages?: number }).messages ?? 0;
}

/**
 * What a child process (jest, the benchmark) needs to use this infrastructure: the TEST_* URLs, and the
 * test CA in NODE_EXTRA_CA_CERTS, which Node reads only at start-up.
 */
export function testInfraEnv(
  infra: Pick<Infra, 'mongoUrl' | 'amqpUrl' | 'managementUrl'>,
  caFile: string,
): Record<string, string> {
  return {
    TEST_MONGO_URL: infra.mongoUrl,
    TEST_AMQP_URL: infra.amqpUrl,
    ...(infra.managementUrl ? { TEST_AMQP_MANAGEMENT_URL: infra.managementUrl } : {}),
    NODE_EXTRA_CA_CERTS: caFile,
  };
}

/** Resolves with a child's exit code (1 when a signal ended it). */
export function exitCodeOf(child: import('node:child_process').ChildProcess): Promise<number> {
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
