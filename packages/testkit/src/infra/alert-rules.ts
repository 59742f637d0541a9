import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './infra';

/**
 * The chart's alert rules (templates/prometheusrule.yaml) as a Prometheus rule file, for `namespace`: the
 * same groups a cluster's Prometheus Operator loads, rendered by helm with the CI values (placeholder
 * secrets; the rules read none of them). Helm comes from scripts/ensure-helm.sh (decision 0185).
 */
export function chartAlertRules(namespace: string): { groups: unknown[] } {
  const root = repoRoot();
  const helm = execFileSync('bash', [join(root, 'scripts', 'ensure-helm.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const chart = join(root, 'charts', 'travel-expense');
  // The oldest Kubernetes the chart supports (Chart.yaml's kubeVersion), as scripts/chart-check.sh renders.
  const { kubeVersion } = parse(readFileSync(join(chart, 'Chart.yaml'), 'utf8')) as { kubeVersion: string };
  const oldest = /(\d+\.\d+\.\d+)/.exec(kubeVersion)?.[1];
  if (!oldest) throw new Error(`no version in Chart.yaml's kubeVersion (${kubeVersion})`);
  const rendered = execFileSync(
    helm,
    [
      'template',
      'local',
      chart,
      '--namespace',
      namespace,
      '--kube-version',
      oldest,
      '-f',
      join(chart, 'ci', 'test-values.yaml'),
      '--show-only',
      'templates/prometheusrule.yaml',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const rule = parse(rendered) as { kind?: string; spec?: { groups?: unknown[] } };
  if (rule?.kind !== 'PrometheusRule' || !Array.isArray(rule.spec?.groups))
    throw new Error('helm rendered no PrometheusRule with groups');
  return { groups: rule.spec.groups };
}
