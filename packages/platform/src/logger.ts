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

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
