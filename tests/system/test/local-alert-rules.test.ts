// The local Prometheus of `npm start -- --observe` evaluates the chart's own alert rules (decision 0185): an
// SRE trying the stack sees the alerts a cluster would raise. A service whose metrics nobody answers is
// TravelExpenseServiceDown, pending for the rule's `for`.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  chartAlertRules,
  eventually,
  freePort,
  repoRoot,
  startPrometheus,
  type RunningPrometheus,
} from '@travel/testkit';

const TEMPLATE = join(repoRoot(), 'charts', 'travel-expense', 'templates', 'prometheusrule.yaml');
const NAMESPACE = 'local-alerts';

interface Alert {
  labels: Record<string, string>;
  state: string;
}

describe("the local Prometheus evaluates the chart's alert rules", () => {
  let prometheus: RunningPrometheus;

  beforeAll(async () => {
    const stateDir = join(repoRoot(), '.local', 'test', 'observe-alerts');
    rmSync(join(stateDir, 'prometheus'), { recursive: true, force: true });
    prometheus = await startPrometheus({
      stateDir,
      port: await freePort(),
      // Nothing listens there: the employees service is down.
      targets: [{ service: 'employees', address: `127.0.0.1:${await freePort()}` }],
      namespace: NAMESPACE,
      interval: '1s',
      rules: chartAlertRules(NAMESPACE),
    });
  }, 180_000);
  afterAll(() => prometheus?.stop());

  it('loads every alert the chart defines, and raises ServiceDown for a service that answers no scrape', async () => {
    const defined = [...new Set([...readFileSync(TEMPLATE, 'utf8').matchAll(/- alert: (\w+)/g)].map((m) => m[1]))];
    expect(defined.length).toBeGreaterThan(5);
    const rules = (await (await fetch(`${prometheus.url}/api/v1/rules?type=alert`)).json()) as {
      data: { groups: Array<{ rules: Array<{ name: string; query: string }> }> };
    };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect([...new Set(loaded.map((r) => r.name))].sort()).toEqual(defined.sort());
    expect(loaded.every((r) => r.query.includes(`namespace="${NAMESPACE}"`))).toBe(true);

    const down = await eventually(async () => {
      const body = (await (await fetch(`${prometheus.url}/api/v1/alerts`)).json()) as { data: { alerts: Alert[] } };
      return body.data.alerts.find((a) => a.labels.alertname === 'TravelExpenseServiceDown');
    }, 30_000);
    expect(down).toMatchObject({ state: 'pending', labels: { service: 'employees', severity: 'critical' } });
  });
});
