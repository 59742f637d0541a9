// The whole stack for development: infrastructure, every service, the gateway and one demo tenant per
// market. Runs in the foreground; Ctrl-C stops the services, then the servers it started.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICES as REGISTRY, localUrlOf, serviceEntry, urlEnvOf, type UpstreamName } from '../contracts/src/services';
import { ensureInfra, repoRoot } from '../packages/testkit/src/infra/infra';
import { startProcess, type ManagedProcess } from '../packages/testkit/src/infra/processes';
import { chartAlertRules } from '../packages/testkit/src/infra/alert-rules';
import { startPrometheus } from '../packages/testkit/src/infra/prometheus';
import { waitFor } from '../packages/testkit/src/infra/wait';
import { SmtpSink } from '../packages/testkit/src/smtp-sink';
import { ensureTestTls, extraCaCertsEnv } from '../packages/testkit/src/tls';
import { connectMongo, ensureIndexes, type Market } from '../packages/platform/src';
import { employeesRepositories } from '../services/employees/src/infra/repositories';
import { createTenant, type CreatedTenant } from '../services/employees/src/app/tenants';
import { keyEnv, localSecrets } from './local-secrets';
import { startTraceCollector } from './observe/traces';

const root = repoRoot();
const state = join(root, '.local', 'dev');
const say = (line: string) => process.stdout.write(`[stack] ${line}\n`);
/**
 * `npm start -- --observe` (or OBSERVE=1 / OBSERVE=true): also the observability servers: Prometheus
 * scraping every service (0160) and the OpenTelemetry Collector every service exports its spans to (0164).
 */
const observe = process.argv.includes('--observe') || ['1', 'true'].includes(process.env.OBSERVE ?? '');
const PROMETHEUS_PORT = Number(process.env.PROMETHEUS_PORT ?? 9190);
/**
 * `npm start -- --replicas N`: N processes of every service (docs/decisions/0214). Replica 0 is on the
 * registry ports; replica i on the registry ports + 100 × i (employees: 8081, 8181, 8281; ops 9081, 9181,
 * …). Callers, the gateway included, are given each service's replicas as a comma-separated list.
 */
const replicasArg = process.argv.indexOf('--replicas');
const REPLICAS = replicasArg < 0 ? 1 : Number(process.argv[replicasArg + 1]);
if (!Number.isInteger(REPLICAS) || REPLICAS < 1 || REPLICAS > 9)
  throw new Error(`--replicas takes a number from 1 to 9, got "${process.argv[replicasArg + 1]}"`);
/** The port of replica i: the registry's for replica 0, 100 more for each next one. */
const replicaPort = (port: number, i: number) => port + 100 * i;
/** A service's base URLs, every replica's, as its callers are given them. */
const replicaUrls = (name: UpstreamName) =>
  Array.from({ length: REPLICAS }, (_, i) => `http://127.0.0.1:${replicaPort(serviceEntry(name).port, i)}`).join(',');
/** Every upstream variable, each with the list of the service's replicas (EMPLOYEES_URL, ENTRIES_URL, …). */
const upstreamLists = (): Record<string, string> =>
  Object.fromEntries(
    SERVICES.map(({ name }) => [urlEnvOf(name), REPLICAS === 1 ? localUrlOf(name) : replicaUrls(name)]),
  );

/** Every service but the gateway, at its registry ports (contracts/src/services.ts). */
const SERVICES = REGISTRY.filter((s) => s.name !== 'gateway') as ReadonlyArray<{
  name: UpstreamName;
  port: number;
  opsPort: number;
}>;
const DEMO: Array<{ market: Market; name: string }> = [
  { market: 'HR', name: 'Demo d.o.o. (HR)' },
  { market: 'SI', name: 'Demo d.o.o. (SI)' },
  { market: 'SK', name: 'Demo s.r.o. (SK)' },
  { market: 'CZ', name: 'Demo s.r.o. (CZ)' },
  { market: 'PL', name: 'Demo sp. z o.o. (PL)' },
];

/** Settings a local stack gives one service on top of the common ones. */
function serviceEnv(name: string): Record<string, string> {
  if (name === 'reference-fx') {
    // The providers' real history (ECB, CNB, NBP), written by scripts/fx-history.sh from PyPI packages and
    // imported once (decision 0189); then the recorded feeds (reconstructed, illustrative values) for HNB and
    // the weeks after the history ends. FX_IMPORT_ENABLED=true also fetches the live feeds when the network allows.
    const history = join(root, '.local', 'fx-history');
    return {
      ...(existsSync(join(history, 'PROVENANCE.json')) ? { FX_HISTORY_DIR: history } : {}),
      FX_SEED_DIR: join(root, 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
      FX_IMPORT_ENABLED: process.env.FX_IMPORT_ENABLED ?? 'false',
    };
  }
  return {};
}

/** Readiness is asked on the ops port (OPS_PORT), never on the API's. */
/**
 * The chart's alert rules for the local Prometheus (decision 0185), or none when helm cannot be had
 * (no Go toolchain): the stack then runs without them and says why.
 */
function alertRules(): { groups: unknown[] } | undefined {
  try {
    return chartAlertRules('local');
  } catch (err) {
    say(`alerts:        not loaded (${(err as Error).message.split('\n')[0]})`);
    return undefined;
  }
}

async function ready(opsUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${opsUrl}/readyz`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

async function keyWorks(gateway: string, key: string): Promise<boolean> {
  const res = await fetch(`${gateway}/api/v1/company`, { headers: { authorization: `Bearer ${key}` } });
  return res.ok;
}

/** One demo tenant per market, created once and kept in .local/dev/demo-tenants.json. */
async function seedDemoTenants(mongoUrl: string, gateway: string): Promise<Array<CreatedTenant & { market: Market }>> {
  const file = join(state, 'demo-tenants.json');
  if (existsSync(file)) {
    const known = JSON.parse(readFileSync(file, 'utf8')) as Array<CreatedTenant & { market: Market }>;
    if ((await Promise.all(known.map((t) => keyWorks(gateway, t.apiKey)))).every(Boolean)) return known;
  }
  const conn = await connectMongo(mongoUrl, 'travel_employees');
  try {
    const repos = employeesRepositories(conn);
    await ensureIndexes(conn);
    const tenants = [];
    for (const demo of DEMO) tenants.push({ market: demo.market, ...(await createTenant(repos, demo)) });
    writeFileSync(file, JSON.stringify(tenants, null, 2), { mode: 0o600 });
    return tenants;
  } finally {
    await conn.close();
  }
}

async function main(): Promise<void> {
  const infra = await ensureInfra('dev', { useContainers: false });
  say(`infrastructure: ${infra.source}`);
  const secrets = localSecrets(join(state, 'secrets.json'));
  const keysOf = keyEnv(secrets);
  const tls = ensureTestTls(join(state, 'tls'));
  // The dispatcher trusts the local CA (npm run receiver) and whatever NODE_EXTRA_CA_CERTS already names
  // (a receiver with its own CA: mkcert, a company CA), through one bundle file.
  const trust = extraCaCertsEnv(tls.caFile, process.env.NODE_EXTRA_CA_CERTS, join(state, 'tls', 'extra-ca-bundle.pem'));
  if (trust.warning) say(`warning: ${trust.warning}`);
  else if (trust.NODE_EXTRA_CA_CERTS !== tls.caFile)
    say(`the dispatcher trusts ${process.env.NODE_EXTRA_CA_CERTS} and the local CA (${trust.NODE_EXTRA_CA_CERTS})`);
  const gatewayPort = Number(process.env.PORT ?? serviceEntry('gateway').port);
  const gatewayOpsPort = Number(process.env.OPS_PORT ?? serviceEntry('gateway').opsPort);
  const traces = observe ? await startTraceCollector(root, state) : undefined;
  const common = {
    ...traces?.env,
    HOST: '127.0.0.1',
    MONGO_URL: infra.mongoUrl,
    AMQP_URL: infra.amqpUrl,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  // A local SMTP sink for fleet's deadline reminders: every e-mail is printed here, none leaves the machine.
  const smtp = await new SmtpSink((m) => say(`e-mail to ${m.to.join(', ')}: ${m.subject}`)).start();
  const procs: ManagedProcess[] = [];
  /** Servers of --observe, stopped after the services. */
  const observers: ManagedProcess[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping services');
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all(observers.map((p) => p.stop()));
    await smtp.stop();
    await traces?.stop();
    say('stopping infrastructure it started');
    await infra.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGHUP', () => void stopAll(0));

  const tsx = join(root, 'node_modules', '.bin', 'tsx');
  const logDir = join(state, 'logs');
  try {
    const start = (name: string, port: number, opsPort: number, extra: Record<string, string> = {}, replica = 0) => {
      const env = {
        ...common,
        ...keysOf(name),
        // The services that call others find every replica (with one replica, the registry ports as before).
        ...(REPLICAS > 1 ? upstreamLists() : {}),
        PORT: String(port),
        OPS_PORT: String(opsPort),
        SERVICE_NAME: name,
        ...serviceEnv(name),
        ...extra,
      };
      const label = replica ? `${name}-${replica}` : name;
      const proc = startProcess(label, tsx, [join(root, 'services', name, 'src', 'main.ts')], { env, logDir });
      procs.push(proc);
      // A process that dies fails at once (exitReason); a live one may take its time: reference-fx's first boot
      // imports the FX history (25 s idle, over 90 s seen on a loaded 2-core machine).
      return waitFor(`${label} on :${port}`, () => ready(`http://127.0.0.1:${opsPort}`), 300_000, proc.exitReason);
    };
    say(
      `starting ${SERVICES.length} services${REPLICAS > 1 ? `, ${REPLICAS} replicas each (ports +100 per replica)` : ''} (logs in .local/dev/logs/)`,
    );
    // With several replicas, the first of each service starts alone (reference-fx's first boot imports the
    // FX history once), then the others side by side.
    const replicaIndexes = Array.from({ length: REPLICAS }, (_, i) => i);
    await Promise.all(SERVICES.map(({ name, port, opsPort }) => startReplicas(name, port, opsPort)));
    async function startReplicas(name: UpstreamName, port: number, opsPort: number): Promise<void> {
      for (const batch of [replicaIndexes.slice(0, 1), replicaIndexes.slice(1)])
        await Promise.all(batch.map((i) => startOne(name, replicaPort(port, i), replicaPort(opsPort, i), i)));
    }
    function startOne(name: UpstreamName, port: number, opsPort: number, replica: number) {
      return start(
        name,
        port,
        opsPort,
        name === 'webhook-dispatcher'
          ? {
              WEBHOOK_SECRET_ENCRYPTION_KEY: secrets.webhookKey,
              WEBHOOK_ALLOWED_PRIVATE_CIDRS: process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS ?? '',
              ...(process.env.WEBHOOK_RETRY_SCHEDULE
                ? { WEBHOOK_RETRY_SCHEDULE: process.env.WEBHOOK_RETRY_SCHEDULE }
                : {}),
              // The local demo receiver (npm run receiver) and the user's own CAs; partners use public CAs.
              NODE_EXTRA_CA_CERTS: trust.NODE_EXTRA_CA_CERTS,
              // Webhook health notices to the account owners (0229), printed like fleet's reminders.
              SMTP_URL: process.env.SMTP_URL ?? smtp.url,
            }
          : name === 'fleet'
            ? { SMTP_URL: process.env.SMTP_URL ?? smtp.url }
            : {},
        replica,
      );
    }
    // Gateway replica i on the gateway's ports + 100 × i; partners' calls go to any one of them.
    await Promise.all(
      replicaIndexes.map((i) =>
        start('gateway', replicaPort(gatewayPort, i), replicaPort(gatewayOpsPort, i), upstreamLists(), i),
      ),
    );
    const gateway = `http://127.0.0.1:${gatewayPort}`;
    const tenants = await seedDemoTenants(infra.mongoUrl, gateway);
    if (observe) {
      const targets = [...SERVICES, { name: 'gateway', opsPort: gatewayOpsPort }].flatMap((s) =>
        replicaIndexes.map((i) => ({ service: s.name, address: `127.0.0.1:${replicaPort(s.opsPort, i)}` })),
      );
      const rules = alertRules();
      const prometheus = await startPrometheus({
        stateDir: state,
        port: PROMETHEUS_PORT,
        targets,
        namespace: 'local',
        interval: '5s',
        rules,
      });
      observers.push(prometheus.process);
      say(
        `prometheus:    ${prometheus.url} (scrapes ${targets.length} services every 5s; data in .local/dev/prometheus/)`,
      );
      if (rules) say(`alerts:        ${prometheus.url}/alerts (the chart's rules, namespace local)`);
    }

    say(`gateway:       ${gateway}`);
    if (REPLICAS > 1)
      say(
        `replicas:      ${REPLICAS} of every service; replica i on the ports above + 100 × i (gateway ${replicaIndexes.map((i) => replicaPort(gatewayPort, i)).join(', ')})`,
      );
    say(`API reference: ${gateway}/api-reference/`);
    say(
      `health, readiness and metrics: http://127.0.0.1:<OPS_PORT>/healthz, /readyz, /metrics (gateway ${gatewayOpsPort}, services ${SERVICES.map((s) => s.opsPort).join(', ')})`,
    );
    say('demo tenants (API keys are for this local stack only):');
    for (const t of tenants) say(`  ${t.market}  tenant ${t.tenantId}  key ${t.apiKey}`);
    say(`try: curl -s -H "Authorization: Bearer ${tenants[0]!.apiKey}" ${gateway}/api/v1/company`);
    if (traces)
      say(
        `traces: OTLP/HTTP ${traces.env.OTEL_EXPORTER_OTLP_ENDPOINT}, spans in ${traces.spanFile}; see one: npm run trace`,
      );
    say('ready — Ctrl-C stops everything');
    await new Promise(() => undefined);
  } catch (err) {
    console.error(`[stack] ${(err as Error).message}`);
    await stopAll(1);
  }
}

void main();
