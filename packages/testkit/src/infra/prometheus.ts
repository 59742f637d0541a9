import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, type ManagedProcess } from './processes';
import { waitFor } from './wait';

/** One service's ops endpoint (host:port of its /metrics). */
export interface ScrapeTarget {
  service: string;
  address: string;
}

export interface PrometheusOptions {
  /** Where the config, the TSDB (`prometheus/data`) and the log (`logs/prometheus.log`) go. */
  stateDir: string;
  port: number;
  targets: ScrapeTarget[];
  /** The `namespace` label every target gets, as the Prometheus Operator sets it in a cluster. */
  namespace: string;
  /** Scrape and rule-evaluation interval, e.g. `5s`. */
  interval: string;
  /** Alert and recording rules to evaluate (the chart's: `chartAlertRules`), written beside the config. */
  rules?: { groups: unknown[] };
}

export interface RunningPrometheus {
  url: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** Debian's package (scripts/bootstrap.sh installs it); PROMETHEUS_PATH points at another binary. */
export function prometheusBinary(): string {
  const binary = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run scripts/bootstrap.sh (or set PROMETHEUS_PATH)`);
  return binary;
}

/**
 * The scrape configuration: the labels a cluster's ServiceMonitors give (the chart's
 * servicemonitors.yaml): `namespace`, `service` (the short name, on `up` too) and the services' own
 * labels kept (honorLabels), so the chart's alert and dashboard queries read the same series here.
 */
export function prometheusConfig(
  opts: Pick<PrometheusOptions, 'targets' | 'namespace' | 'interval'>,
  ruleFiles: string[] = [],
): object {
  return {
    global: { scrape_interval: opts.interval, evaluation_interval: opts.interval },
    ...(ruleFiles.length > 0 && { rule_files: ruleFiles }),
    scrape_configs: [
      {
        job_name: 'travel-expense',
        metrics_path: '/metrics',
        honor_labels: true,
        static_configs: opts.targets.map((t) => ({
          targets: [t.address],
          labels: { service: t.service, namespace: opts.namespace },
        })),
      },
    ],
  };
}

/** Runs Prometheus on loopback with its own config and data under `stateDir`; never a system service. */
export async function startPrometheus(opts: PrometheusOptions): Promise<RunningPrometheus> {
  const dir = join(opts.stateDir, 'prometheus');
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'prometheus.yml');
  const ruleFiles: string[] = [];
  if (opts.rules) {
    ruleFiles.push(join(dir, 'rules.yml'));
    writeFileSync(ruleFiles[0]!, JSON.stringify(opts.rules, null, 2));
  }
  // JSON is YAML: no YAML writer needed.
  writeFileSync(configFile, JSON.stringify(prometheusConfig(opts, ruleFiles), null, 2));
  const url = `http://127.0.0.1:${opts.port}`;
  const proc = startProcess(
    'prometheus',
    prometheusBinary(),
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${opts.port}`,
      '--storage.tsdb.retention.time=7d',
    ],
    { logDir: join(opts.stateDir, 'logs') },
  );
  const ready = async () => {
    try {
      return (await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) })).ok;
    } catch {
      return false;
    }
  };
  try {
    await waitFor('Prometheus', ready, 30_000, proc.exitReason);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { url, process: proc, stop: () => proc.stop() };
}

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** An instant query through the HTTP API; a query Prometheus refuses throws with its error. */
export async function promQuery(url: string, expr: string): Promise<PromSample[]> {
  const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr })}`);
  const body = (await res.json()) as { status: string; error?: string; data?: { resultType: string; result: unknown } };
  if (body.status !== 'success') throw new Error(`Prometheus refused ${expr}: ${body.error}`);
  if (body.data!.resultType !== 'vector') throw new Error(`${expr}: a ${body.data!.resultType}, not a vector`);
  return body.data!.result as PromSample[];
}
