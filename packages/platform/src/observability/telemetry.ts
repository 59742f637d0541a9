import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { Resource } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { WEBHOOK_USER_AGENT } from './webhook-agent';

let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry SDK before express, mongodb and amqplib are loaded, so their instrumentations
 * hook in. Traces are exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set; W3C trace context still
 * propagates through HTTP and AMQP headers either way.
 */
export function startTelemetry(serviceName: string): void {
  if (sdk || process.env.OTEL_SDK_DISABLED === 'true') return;
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  // Without an endpoint the SDK would still export to localhost:4318; say "none" unless told otherwise.
  if (!endpoint) process.env.OTEL_TRACES_EXPORTER ??= 'none';
  sdk = new NodeSDK({
    resource: new Resource({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? serviceName }),
    ...(endpoint ? { traceExporter: new OTLPTraceExporter() } : {}),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)/.test(req.url ?? ''),
        // Webhook POSTs carry exactly the spec's headers (no traceparent to partners); the dispatcher
        // records their span itself.
        ignoreOutgoingRequestHook: (req) =>
          String((req.headers as Record<string, unknown> | undefined)?.['user-agent'] ?? '') === WEBHOOK_USER_AGENT,
      }),
      new ExpressInstrumentation(),
      // The gateway's upstream pool (undici, 0178): its client spans and the trace context to the services.
      new UndiciInstrumentation(),
      new MongoDBInstrumentation(),
      new AmqplibInstrumentation(),
    ],
  });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
