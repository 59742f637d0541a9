import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, type ManagedProcess } from './processes';
import { portOpen, waitFor } from './wait';

/** The standard OTLP/HTTP port, where `npm start -- --observe` listens. */
export const OTLP_HTTP_PORT = 4318;

export interface OtelCollector {
  /** What a service's OTEL_EXPORTER_OTLP_ENDPOINT is set to (OTLP over HTTP). */
  endpoint: string;
  /** Every batch of spans received, one line of OTLP JSON each (readSpans). */
  spanFile: string;
  proc: ManagedProcess;
  stop(): Promise<void>;
}

/**
 * The OpenTelemetry Collector of tools/otelcol (built by scripts/bootstrap.sh), receiving OTLP/HTTP on
 * loopback `port` and appending every span to `<stateDir>/otel/spans.jsonl`; `echo` also prints one line
 * per batch to its log (the debug exporter).
 */
export async function startOtelCollector(
  root: string,
  stateDir: string,
  port = OTLP_HTTP_PORT,
  options: { echo?: boolean } = {},
): Promise<OtelCollector> {
  const binary = join(root, '.tools', 'bin', 'otelcol-local');
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run scripts/bootstrap.sh`);
  const dir = join(stateDir, 'otel');
  mkdirSync(dir, { recursive: true });
  const spanFile = join(dir, 'spans.jsonl');
  const exporters = options.echo ? ['tracefile', 'debug'] : ['tracefile'];
  // JSON is YAML: the configuration written without a YAML library.
  const config = {
    receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${port}` } } } },
    exporters: { tracefile: { path: spanFile }, debug: { verbosity: 'basic' } },
    service: {
      telemetry: { metrics: { level: 'none' } },
      pipelines: { traces: { receivers: ['otlp'], exporters } },
    },
  };
  const configFile = join(dir, `collector-${port}.yaml`);
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const proc = startProcess(`otel-collector-${port}`, binary, ['--config', configFile], {
    logDir: join(stateDir, 'logs'),
  });
  await waitFor('OpenTelemetry Collector', () => portOpen(port), 30_000, proc.exitReason);
  return { endpoint: `http://127.0.0.1:${port}`, spanFile, proc, stop: () => proc.stop() };
}
