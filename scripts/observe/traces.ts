// The trace half of `npm start -- --observe`: the OpenTelemetry Collector (tools/otelcol) on the standard
// OTLP/HTTP port, and what every service is told so that it exports its spans there.
import { join } from 'node:path';
import { OTLP_HTTP_PORT, startOtelCollector } from '../../packages/testkit/src/infra/otel-collector';

export interface TraceCollector {
  /** Variables for every service: where to send spans, and how soon. */
  env: Record<string, string>;
  /** Where the spans land (read with `npm run trace`). */
  spanFile: string;
  stop(): Promise<void>;
}

export async function startTraceCollector(root: string, stateDir: string): Promise<TraceCollector> {
  const port = Number(process.env.OTLP_HTTP_PORT ?? OTLP_HTTP_PORT);
  const collector = await startOtelCollector(root, stateDir, port, { echo: true });
  return {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      // Spans leave within half a second (the SDK's default waits 5 s): a trace shows up as you look.
      OTEL_BSP_SCHEDULE_DELAY: '500',
    },
    spanFile: collector.spanFile,
    stop: () => collector.stop(),
  };
}

/** Where the local stack's collector writes its spans (stack.ts's state folder). */
export const localSpanFile = (root: string): string => join(root, '.local', 'dev', 'otel', 'spans.jsonl');
