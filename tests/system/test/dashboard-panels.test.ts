// Every query of the chart's Grafana dashboard, run by a real Prometheus scraping a real stack after a
// short load, must return data, so a renamed metric or label breaks the build and not the dashboard
// (issue 27, decision 0162). A panel that is rightly empty while all is well says so: its description
// starts with "Empty when healthy"; its query must still be accepted, and every metric it reads must exist.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, promQuery, repoRoot, startPrometheus, type RunningPrometheus } from '@travel/testkit';
import { employee } from '@travel/employees/test/support/org-fixtures';
import type { RunningService } from '@travel/platform';
import { startE2eStack, type E2eStack } from './support/stack';

const DASHBOARD = join(repoRoot(), 'charts', 'travel-expense', 'dashboards', 'travel-expense-overview.json');
/** The chart's alerts: promtool tests them on made-up series (scripts/chart-check.sh); here, their metrics are real. */
const ALERTS = join(repoRoot(), 'charts', 'travel-expense', 'templates', 'prometheusrule.yaml');
const EMPTY_WHEN_HEALTHY = /^Empty when healthy\b/;
const NAMESPACE = 'dashboard-test';
/**
 * Grafana's variables as a user sees them: this stack's namespace, every service (the variable's "All",
 * its allValue), and a rate window that spans the whole load (Grafana's own $__rate_interval would be
 * 4 scrape intervals: far shorter than a test run, and nothing would be left to rate).
 */
const VARIABLES: Record<string, string> = { __rate_interval: '1m', namespace: NAMESPACE, service: '.*' };

interface Panel {
  id: number;
  title: string;
  type: string;
  description?: string;
  targets?: Array<{ expr: string; refId: string }>;
  panels?: Panel[];
}
interface Dashboard {
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query?: { query: string } | string }> };
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
/** Panels in collapsed rows are nested; every panel with a query counts. */
const queried = (panels: Panel[]): Panel[] =>
  panels.flatMap((p) => [...(p.targets?.length ? [p] : []), ...queried(p.panels ?? [])]);

/** `$name` and `${name}` replaced; a variable the test does not know fails instead of passing as text. */
function substitute(expr: string): string {
  const out = expr.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced: string, bare: string) => {
    const value = VARIABLES[braced ?? bare];
    if (value === undefined) throw new Error(`unknown dashboard variable ${whole} in ${expr}`);
    return value;
  });
  return out;
}

/** The metric names a query selects (every selector of the dashboard has a `{…}` matcher). */
const metricsOf = (expr: string): string[] => [
  ...new Set([...expr.matchAll(/([a-zA-Z_:][\w:]*)\{/g)].map((m) => m[1]!)),
];

const finite = (samples: Array<{ value: [number, string] }>) =>
  samples.some((s) => Number.isFinite(Number(s.value[1])));

describe('the Grafana dashboard against a real Prometheus', () => {
  let stack: E2eStack;
  let receipts: RunningService;
  let prometheus: RunningPrometheus;

  /** Requests through the gateway, one of them refused (404), and an employee.created webhook delivered. */
  async function load(
    round: number,
    api: Awaited<ReturnType<E2eStack['tenant']>>['api'],
    receiver: { waitForRequests(n: number): Promise<unknown> },
  ) {
    await employee(api);
    expect((await api.get('/api/v1/employees')).status).toBe(200);
    expect((await api.get('/api/v1/employees/00000000-0000-4000-8000-00000000dead')).status).toBe(404);
    await receiver.waitForRequests(round);
  }

  /** Polls until `ok` holds for what Prometheus answers (it scrapes every second), then returns it. */
  async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last = await read();
    while (!ok(last) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      last = await read();
    }
    return last;
  }

  const panelData = async () =>
    Promise.all(
      queried(dashboard.panels).flatMap((panel) =>
        panel.targets!.map(async (t) => ({
          panel,
          refId: t.refId,
          expr: substitute(t.expr),
          samples: await promQuery(prometheus.url, substitute(t.expr)),
        })),
      ),
    );

  beforeAll(async () => {
    stack = await startE2eStack('dashboard');
    // The reading queue's panels and alerts (0202): receipts exports its backlog and outcome series from
    // the start, so it needs no entries here (nothing is read).
    receipts = await (
      await import('@travel/receipts/src/service')
    ).start({ ...process.env, ...stack.env.vars, ENTRIES_URL: 'http://127.0.0.1:9' });
    const stateDir = join(repoRoot(), '.local', 'test', 'observe');
    rmSync(join(stateDir, 'prometheus'), { recursive: true, force: true });
    prometheus = await startPrometheus({
      stateDir,
      port: await freePort(),
      targets: [
        { service: 'employees', address: new URL(stack.employees.opsUrl).host },
        { service: 'webhook-dispatcher', address: new URL(stack.dispatcher.opsUrl).host },
        { service: 'gateway', address: new URL(stack.gateway.opsUrl).host },
        { service: 'receipts', address: new URL(receipts.opsUrl).host },
      ],
      namespace: NAMESPACE,
      interval: '1s',
    });
    const { api } = await stack.tenant('HR');
    const receiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    expect(sub.status).toBe(201);
    // Two rounds with a scrape between them: a counter first seen at its first value has no rate yet.
    await load(1, api, receiver);
    // Round 1 is scraped once the delivery's latency is (the dispatcher's metrics come in one scrape) and
    // every service's requests are.
    const scraped = async () => ({
      services: (await promQuery(prometheus.url, `count by (service) (http_requests_total{namespace="${NAMESPACE}"})`))
        .map((s) => s.metric.service)
        .sort(),
      delivered: (await promQuery(prometheus.url, `webhook_delivery_latency_seconds_count{namespace="${NAMESPACE}"}`))
        .length,
    });
    const seen = await eventually(scraped, (r) => r.services.length === 3 && r.delivered > 0);
    expect(seen).toEqual({ services: ['employees', 'gateway', 'webhook-dispatcher'], delivered: 1 });
    await load(2, api, receiver);
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    await receipts?.stop();
    await stack?.stop();
  });

  it('every template variable has values in Prometheus', async () => {
    for (const v of dashboard.templating.list.filter((x) => x.type === 'query')) {
      const query = typeof v.query === 'string' ? v.query : v.query!.query;
      const m = /^label_values\((.+), *(\w+)\)$/.exec(substitute(query));
      expect(m).not.toBeNull();
      const res = await fetch(
        `${prometheus.url}/api/v1/label/${m![2]}/values?${new URLSearchParams({ 'match[]': m![1]! })}`,
      );
      const values = ((await res.json()) as { data: string[] }).data;
      expect({ variable: v.name, values: values.length > 0 }).toEqual({ variable: v.name, values: true });
    }
  });

  it('every panel query returns data, unless its panel is marked "Empty when healthy"', async () => {
    const required = (r: { panel: Panel }) => !EMPTY_WHEN_HEALTHY.test(r.panel.description ?? '');
    const results = await eventually(panelData, (rs) => rs.filter(required).every((r) => finite(r.samples)));
    const missing = results
      .filter((r) => required(r) && !finite(r.samples))
      .map((r) => `${r.panel.title} (${r.refId}): ${r.expr}`);
    expect(missing).toEqual([]);
    // The dashboard has queries at all, and the marker is the exception.
    expect(results.filter(required).length).toBeGreaterThan(results.length / 2);
  });

  it('a panel marked "Empty when healthy" still reads only metrics the services export', async () => {
    const marked = queried(dashboard.panels).filter((p) => EMPTY_WHEN_HEALTHY.test(p.description ?? ''));
    for (const panel of marked) {
      for (const t of panel.targets!) {
        const names = metricsOf(t.expr);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) {
          const series = await promQuery(prometheus.url, `count({__name__="${name}",namespace="${NAMESPACE}"})`);
          expect({ panel: panel.title, metric: name, exported: series.length > 0 }).toEqual({
            panel: panel.title,
            metric: name,
            exported: true,
          });
        }
      }
    }
  });

  it('every metric an alert of the chart reads is exported by the services', async () => {
    // In the template every selector is `name{ {{- $ns }}…}`.
    const names = [
      ...new Set([...readFileSync(ALERTS, 'utf8').matchAll(/([a-zA-Z_:][\w:]*)\{ \{\{-/g)].map((m) => m[1]!)),
    ];
    expect(names.length).toBeGreaterThanOrEqual(9);
    const missing = [];
    for (const name of names) {
      const series = await promQuery(prometheus.url, `count({__name__="${name}",namespace="${NAMESPACE}"})`);
      if (series.length === 0) missing.push(name);
    }
    expect(missing).toEqual([]);
  });
});
