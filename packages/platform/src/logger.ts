import { trace } from '@opentelemetry/api';
import pino from 'pino';

export type Logger = pino.Logger;

// Secrets and personal data never reach the logs: these paths are censored wherever they appear.
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-internal-context"]',
  '*.signingSecret',
  '*.apiKey',
  '*.secret',
  '*.email',
  '*.phone',
  '*.taxId',
  '*.bankAccount',
];

/** The active span's ids on every line, so a log line leads to its trace (and back). */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !trace.isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId };
}

export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    // An unknown level would make pino throw before the configuration is read: the configuration's
    // check then names LOG_LEVEL among its problems instead (docs/configuration.md).
    level: level in pino.levels.values || level === 'silent' ? level : 'info',
    base: { service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}
