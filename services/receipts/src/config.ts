import { serviceEntry } from '@travel/contracts';
import { env, envSection, serviceConfig } from '@travel/platform';

export const SERVICE = 'receipts';
export const DEFAULT_PORT = serviceEntry('receipts').port;

/** The shared settings plus entries (the bytes) and the reading's bounds (docs/configuration.md, "Receipts"). */
export const configSchema = serviceConfig(
  SERVICE,
  DEFAULT_PORT,
  envSection('receipts', {
    ENTRIES_URL: env.urls({
      default: 'http://127.0.0.1:8082',
      description:
        'entries: the bytes of a stored attachment (its internal route; docs/decisions/0200). Unreachable: the reading waits and is tried again with back-off; it is not counted as an engine failure.',
    }),
    READING_TIMEOUT_MS: env.int({
      default: 30_000,
      min: 1,
      description:
        'How long one reading of one file may take, in ms; past it the engine is stopped and the attempt counts as failed (retried with back-off, then Unreadable).',
    }),
    READING_MAX_ATTEMPTS: env.int({
      default: 3,
      min: 1,
      max: 20,
      description:
        'Engine runs of one file before it is recorded Unreadable ("could not be read after N attempts"). Only failures a retry could fix count (a crash, a time-out); a file that is no receipt is Unreadable at once.',
    }),
    READING_RETRY_BASE_MS: env.int({
      default: 10_000,
      min: 1,
      description: 'Back-off after the first failed attempt, in ms; doubled after each further failure.',
    }),
    READING_RETRY_MAX_MS: env.int({
      default: 300_000,
      min: 1,
      description: 'Upper bound of one back-off between attempts, in ms.',
    }),
    READING_IDLE_POLL_MS: env.int({
      default: 2_000,
      min: 10,
      description:
        'How often an idle replica looks for work another replica queued or a back-off released, in ms (work this replica queued starts at once).',
    }),
  }),
  (v) => ({
    entriesUrl: v.ENTRIES_URL,
    timeoutMs: v.READING_TIMEOUT_MS,
    maxAttempts: v.READING_MAX_ATTEMPTS,
    retry: { baseMs: v.READING_RETRY_BASE_MS, maxDelayMs: v.READING_RETRY_MAX_MS, maxAttempts: v.READING_MAX_ATTEMPTS },
    idlePollMs: v.READING_IDLE_POLL_MS,
  }),
);
