// Import first in a service's main.ts: instrumentation must be installed before express, mongodb and amqplib load.
import { startTelemetry } from './observability/telemetry';

startTelemetry(process.env.SERVICE_NAME ?? process.env.OTEL_SERVICE_NAME ?? 'travel-expense');
