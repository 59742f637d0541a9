// Issue 27, one trace: a partner's POST /api/v1/travel-entries is one trace from the gateway's server
// span, through the entries service, its outbox relay, RabbitMQ and the webhook dispatcher, to the
// webhook POST's client span, as a real OTLP receiver (the OpenTelemetry Collector of tools/otelcol)
// gets it. The partner's receiver never sees a trace header.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { urlEnv } from '@travel/contracts';
import type { RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import {
  ancestry,
  childPorts,
  createTestEnv,
  eventually,
  freePort,
  productionLikeEnv,
  readSpans,
  repoRoot,
  startOtelCollector,
  traceTree,
  waitReady,
  type HttpsReceiver,
  type OtelCollector,
  type SpanRecord,
  type TestEnv,
} from '@travel/testkit';
import { receiverPool, tenantMaker } from './support/stack-parts';

/** The services on the traced path, run as built processes exporting their spans. */
type Traced = 'gateway' | 'entries' | 'webhook-dispatcher';

describe('one trace from a partner request to its webhook', () => {
  const root = repoRoot();
  const stateDir = mkdtempSync(join(tmpdir(), 'one-trace-'));
  let env: TestEnv;
  let collector: OtelCollector;
  let employees: RunningService;
  let referenceFx: RunningService;
  const children: ChildProcess[] = [];
  const receivers = receiverPool();
  const urls = {} as Record<Traced, string>;

  /** A built service as production runs it (plain node, dist/main.js), exporting its spans to the collector. */
  async function startTraced(
    name: Traced,
    ports: Awaited<ReturnType<typeof childPorts>>,
    extra: Record<string, string>,
  ): Promise<void> {
    const vars = productionLikeEnv({
      ...env.vars,
      ...ports.env,
      ...extra,
      SERVICE_NAME: name,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      // Spans leave every 100 ms rather than every 5 s, so the test waits little.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    delete vars.OTEL_SDK_DISABLED;
    const log = join(stateDir, `${name}.log`);
    const child = spawn('node', [join(root, 'services', name, 'dist', 'main.js')], {
      env: vars,
      stdio: ['ignore', openSync(log, 'a'), openSync(log, 'a')],
    });
    children.push(child);
    await waitReady(ports.opsUrl, 60_000).catch((err: Error) => {
      throw new Error(`${name} not ready (${err.message}): ${readFileSync(log, 'utf8').slice(-2000)}`);
    });
  }

  beforeAll(async () => {
    collector = await startOtelCollector(root, stateDir, await freePort());
    env = await createTestEnv('one-trace', { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '0' });
    const vars = { ...process.env, ...env.vars };
    // Not on the traced path: in this process, untraced (their spans are not asserted).
    employees = await startEmployees(vars);
    referenceFx = await startReferenceFx({
      ...vars,
      FX_SEED_DIR: join(root, 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
    });
    // Ports first, so the three start at once, each knowing where the others will be.
    const taken = new Set<string>();
    const distinctPorts = async (): Promise<Awaited<ReturnType<typeof childPorts>>> => {
      const p = await childPorts();
      if (taken.has(p.env.PORT) || taken.has(p.env.OPS_PORT)) return distinctPorts();
      taken.add(p.env.PORT).add(p.env.OPS_PORT);
      return p;
    };
    const ports = {
      gateway: await distinctPorts(),
      entries: await distinctPorts(),
      'webhook-dispatcher': await distinctPorts(),
    };
    for (const name of Object.keys(ports) as Traced[]) urls[name] = ports[name].url;
    await Promise.all([
      startTraced('entries', ports.entries, urlEnv({ employees: employees.url, 'reference-fx': referenceFx.url })),
      startTraced('webhook-dispatcher', ports['webhook-dispatcher'], {}),
      startTraced(
        'gateway',
        ports.gateway,
        urlEnv({
          employees: employees.url,
          entries: urls.entries,
          'reference-fx': referenceFx.url,
          'webhook-dispatcher': urls['webhook-dispatcher'],
        }),
      ),
    ]);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receivers.stopAll();
    await referenceFx?.stop();
    await employees?.stop();
    await env?.cleanup();
    await collector?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('gateway → entries → outbox relay → RabbitMQ → dispatcher → webhook POST, all one trace; the retry a trace of its own, linked; no trace header to the partner', async () => {
    const { api } = await tenantMaker(employees, { url: urls.gateway }, 'Trace', 'CZ')('CZ');
    // The partner fails the first attempt: the retry shows how a later attempt is traced.
    const receiver: HttpsReceiver = (await receivers.receiver()).replyNext({ status: 500 });
    expect((await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['entry.created'] })).status).toBe(201);

    const created = await api.post('/api/v1/travel-entries', { departureDate: '2026-11-02', returnDate: '2026-11-04' });
    expect(created.status).toBe(201);
    const received = await receiver.waitForRequests(2);
    for (const webhook of received) {
      expect(JSON.parse(webhook.body.toString('utf8')).data.id).toBe(created.body.id);
      // The partner gets the spec's headers only: no W3C trace context, no baggage.
      for (const header of ['traceparent', 'tracestate', 'baggage']) expect(webhook.headers).not.toHaveProperty(header);
    }

    // Both webhook POST spans, once exported, the first with its trace up to the gateway's server span.
    const posts = (status: number) =>
      spans.filter(
        (s) =>
          s.service === 'webhook-dispatcher' &&
          s.name === 'webhook POST' &&
          s.attributes['http.response.status_code'] === status,
      );
    let spans: SpanRecord[] = [];
    await eventually(async () => {
      spans = readSpans(collector.spanFile);
      const [failed] = posts(500);
      const [retried] = posts(200);
      return (
        !!failed &&
        !!retried &&
        ancestry(spans, failed).some((s) => s.service === 'gateway' && s.kind === 'SERVER') &&
        ancestry(spans, retried).some((s) => s.name === 'webhook retry scheduled')
      );
    }, 20_000);
    const [post] = posts(500);
    const requestTrace = post!.traceId;
    const tree = traceTree(spans, requestTrace);

    // The chain of parents from the first webhook POST back to the root: each hop by service, kind and name.
    const chain = ancestry(spans, post!).reverse();
    const hop = (service: string, kind: SpanRecord['kind'], name: RegExp) =>
      chain.findIndex((s) => s.service === service && s.kind === kind && name.test(s.name));
    const hops = [
      hop('gateway', 'SERVER', /^POST/),
      hop('gateway', 'CLIENT', /^POST/),
      hop('entries', 'SERVER', /^POST/),
      hop('entries', 'INTERNAL', /^outbox relay entries\.entry\.created$/),
      hop('entries', 'PRODUCER', /^publish domain\.events$/),
      hop('webhook-dispatcher', 'CONSUMER', /^webhook-dispatcher\.events process$/),
      hop('webhook-dispatcher', 'CLIENT', /^webhook POST$/),
    ];
    // Every hop is there, in this order (the trace's tree is printed when not).
    const inOrder = hops.every((at, k) => at >= 0 && (k === 0 || at > hops[k - 1]!));
    expect({ hops, inOrder, tree }).toEqual({ hops, inOrder: true, tree });
    // The gateway's server span for the partner's request is the trace's root.
    expect(hops[0]).toBe(0);
    expect(chain[0]!.parentSpanId).toBeUndefined();
    expect(chain[0]!.attributes['http.target']).toBe('/api/v1/travel-entries');
    expect(post!.attributes).toMatchObject({
      'webhook.event_type': 'entry.created',
      'webhook.delivery_id': expect.any(String),
    });
    // One trace: every span of it has its parent in it, but the root.
    const own = spans.filter((s) => s.traceId === requestTrace);
    const ids = new Set(own.map((s) => s.spanId));
    expect(own.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([chain[0]!.name]);

    // The retry: a trace of its own, rooted at `webhook retry scheduled`, linked to the request's trace.
    const [retried] = posts(200);
    expect(retried!.traceId).not.toBe(requestTrace);
    const retryRoot = ancestry(spans, retried!).at(-1)!;
    expect(retryRoot).toMatchObject({ name: 'webhook retry scheduled', service: 'webhook-dispatcher' });
    expect(retryRoot.parentSpanId).toBeUndefined();
    expect(retryRoot.links.map((l) => l.traceId)).toEqual([requestTrace]);
    expect(retryRoot.attributes).toMatchObject({
      'webhook.attempt': 2,
      'webhook.delivery_id': post!.attributes['webhook.delivery_id'],
    });

    // The log lines written inside the request's spans carry its trace id.
    await eventually(async () => readFileSync(join(stateDir, 'entries.log'), 'utf8').includes(requestTrace));
    const lines = readFileSync(join(stateDir, 'entries.log'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLine = lines.find((l) => l.msg === 'request' && l.route === '/api/v1/travel-entries');
    expect(requestLine).toMatchObject({ trace_id: requestTrace, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(ids.has(requestLine!.span_id as string)).toBe(true);
  }, 60_000);
});
