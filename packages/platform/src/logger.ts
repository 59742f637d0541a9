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

/** Lines wait in memory until this many bytes are buffered, or at most FLUSH_MS. */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 200;
const WARN = 40;

/**
 * Standard output (or another file descriptor), written in batches: up to LOG_BUFFER_BYTES of lines, at
 * least every LOG_FLUSH_MS. One write per line (pino's default) cost a process more per request than its
 * routing, one request line each (docs/decisions/0094). Lines of level warn and above are flushed at once
 * (createLogger), and pino flushes what is buffered when the process exits.
 */
export function bufferedDestination(fd = 1, flushMs = LOG_FLUSH_MS) {
  return pino.destination({ dest: fd, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: flushMs });
}

/** As pino chooses: standard output replaced by a test or a tool is written through, not around. */
const stdoutDestination = (): pino.DestinationStream =>
  process.stdout.write === Object.getPrototypeOf(process.stdout).write ? bufferedDestination() : process.stdout;

export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination: pino.DestinationStream = stdoutDestination(),
): Logger {
  const flush = (destination as { flush?: () => void }).flush?.bind(destination);
  const options: pino.LoggerOptions = {
    name: service,
    // An unknown level would make pino throw before the configuration is read: the configuration's
    // check then names LOG_LEVEL among its problems instead (docs/configuration.md).
    level: level in pino.levels.values || level === 'silent' ? level : 'info',
    base: { service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceFields,
    // A warning or an error is not left waiting in the buffer (bufferedDestination).
    ...(flush && {
      hooks: {
        logMethod(args, method, lineLevel) {
          method.apply(this, args);
          if (lineLevel >= WARN) {
            try {
              flush();
            } catch {
              // a closed destination: the line itself already went where it could
            }
          }
        },
      },
    }),
  };
  return pino(options, destination);
}

const requestLoggers = new WeakMap<Logger, Logger>();

/**
 * The logger of the request lines (`recordRequest`): `logger` without the redaction. A request line holds
 * only fields the platform sets (request id, method, route template, status, duration), never a header or
 * a body, and the redaction's walk over each line cost about 4 µs, more than the rest of the line.
 */
export function requestLineLogger(logger: Logger): Logger {
  let lines = requestLoggers.get(logger);
  if (!lines) {
    lines = logger.child({}, { redact: { paths: [] } });
    requestLoggers.set(logger, lines);
  }
  return lines;
}
