// The chart's RabbitMQ definitions (charts/travel-expense/files/rabbitmq-topology.json, rendered from
// the topology description by scripts/topology.ts) are exactly what the services declare at boot with
// the default settings: the same queues with the same arguments, the same exchanges and bindings. A
// consumer started with a queue not declared in its service's src/infra/topology.ts (decision 0177), or an
// argument changed in the file only, fails here. And the definitions import into a broker the services already use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { start as startEntries } from '@travel/entries/src/service';
import { start as startFleet } from '@travel/fleet/src/service';
import { start as startPayouts } from '@travel/payouts/src/service';
import { start as startReceipts } from '@travel/receipts/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { start as startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { createTestEnv, eventually, repoRoot, type TestEnv } from '@travel/testkit';
import { managementAuth } from '@travel/testkit/src/infra/rabbitmq';

interface Definitions {
  exchanges: { name: string; type: string; durable: boolean }[];
  queues: { name: string; durable: boolean; arguments: Record<string, unknown> }[];
  bindings: { source: string; destination: string; routing_key: string }[];
  policies: { name: string }[];
}

const definitions = JSON.parse(
  readFileSync(join(repoRoot(), 'charts', 'travel-expense', 'files', 'rabbitmq-topology.json'), 'utf8'),
) as Definitions;

// Empty values are the defaults: the spec's retry schedule and the default consumer back-off, as in production.
const DEFAULTS = {
  CONSUMER_RETRY_BASE_MS: '',
  CONSUMER_RETRY_MAX_DELAY_MS: '',
  CONSUMER_RETRY_MAX_ATTEMPTS: '',
  WEBHOOK_RETRY_SCHEDULE: '',
};

describe("the chart's RabbitMQ definitions", () => {
  let env: TestEnv;
  const services: RunningService[] = [];
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${env.infra.managementUrl}/api/${path}`, {
      ...init,
      headers: { authorization: managementAuth(), 'content-type': 'application/json' },
    });
  const vhost = () => encodeURIComponent(env.vhost);

  beforeAll(async () => {
    env = await createTestEnv('topology', DEFAULTS);
    const vars = { ...process.env, ...env.vars };
    // Every service, so a consumer added to any of them but not to the description shows.
    for (const start of [
      startEmployees,
      startEntries,
      startFleet,
      startPayouts,
      startReceipts,
      startReferenceFx,
      startDispatcher,
    ])
      services.push(await start(vars));
    // The gateway declares only its presence queue (decision 0221), once connected: it does not wait for the broker.
    gateway = await startGateway(vars);
    await eventually(async () => (await api(`queues/${vhost()}/gateway.presence`)).ok || undefined);
  });
  afterAll(async () => {
    await gateway?.stop();
    for (const s of services.reverse()) await s.stop();
    await env?.cleanup();
  });

  it('name every queue the services declared, with the same arguments', async () => {
    const queues = (await (await api(`queues/${vhost()}`)).json()) as Definitions['queues'];
    const declared = Object.fromEntries(queues.map((q) => [q.name, { durable: q.durable, arguments: q.arguments }]));
    const described = Object.fromEntries(
      definitions.queues.map((q) => [q.name, { durable: q.durable, arguments: q.arguments }]),
    );
    expect(declared).toEqual(described);
  });

  it('name every exchange and binding the services declared', async () => {
    const exchanges = ((await (await api(`exchanges/${vhost()}`)).json()) as Definitions['exchanges'])
      .filter((e) => e.name !== '' && !e.name.startsWith('amq.'))
      .map((e) => ({ name: e.name, type: e.type, durable: e.durable }));
    expect(exchanges.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      definitions.exchanges
        .map((e) => ({ name: e.name, type: e.type, durable: e.durable }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
    const key = (b: Definitions['bindings'][number]) => `${b.source} -> ${b.destination} (${b.routing_key})`;
    const bindings = ((await (await api(`bindings/${vhost()}`)).json()) as Definitions['bindings'])
      .filter((b) => b.source !== '')
      .map(key);
    expect(bindings.sort()).toEqual(definitions.bindings.map(key).sort());
  });

  it('import into a broker the services already use, policies included', async () => {
    const res = await api(`definitions/${vhost()}`, { method: 'POST', body: JSON.stringify(definitions) });
    expect(res.status).toBeLessThan(300);
    const policies = (await (await api(`policies/${vhost()}`)).json()) as Definitions['policies'];
    expect(policies.map((p) => p.name)).toEqual(definitions.policies.map((p) => p.name));
  });
});
