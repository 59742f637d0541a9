import { serviceEntry } from '@travel/contracts';
import { env, envSection, serviceConfig } from '@travel/platform';

export const SERVICE = 'payouts';
export const DEFAULT_PORT = serviceEntry('payouts').port;

/** The shared settings plus the two services a batch needs and the recovery job (docs/configuration.md, "Payouts"). */
export const configSchema = serviceConfig(
  SERVICE,
  DEFAULT_PORT,
  envSection('payouts', {
    ENTRIES_URL: env.urls({
      default: 'http://127.0.0.1:8082',
      description:
        'entries: the internal payout routes that reserve, mark paid out, release and undo a batch’s entries (docs/decisions/0075). Unreachable: creating or deleting a batch answers `503 SERVICE_UNAVAILABLE` and nothing is paid (the recovery finishes).',
    }),
    EMPLOYEES_URL: env.urls({
      default: 'http://127.0.0.1:8081',
      description:
        'employees: the payees’ names and bank data, kept with a BankTransfer batch when it is made (docs/decisions/0111), and the company’s name for its payment file. Unreachable: creating a BankTransfer batch or downloading a file answers `503 SERVICE_UNAVAILABLE`.',
    }),
    PAYOUT_ENTRIES_TIMEOUT_MS: env.int({
      default: 30_000,
      min: 100,
      description:
        'How long one call to entries’ payout routes may take, in ms. A reserve without an answer in time leaves the batch to the recovery job (`503 SERVICE_UNAVAILABLE`, nothing paid; docs/decisions/0110).',
    }),
    PAYOUT_RESERVATION_MS: env.int({
      default: 600_000,
      min: 1_000,
      description:
        'How long the reservations of a new batch hold unless it is paid, in ms (docs/decisions/0110): past it, entries lets another batch take them and refuses a reserve that arrives late. Keep it well above the entries time-out plus the recovery grace and interval.',
    }),
    PAYOUT_RECOVERY_INTERVAL_MS: env.int({
      default: 30_000,
      min: 100,
      description:
        'How often the recovery job finishes or rolls back batches a crash left half-way (it also runs at start), in ms.',
    }),
    PAYOUT_RECOVERY_GRACE_MS: env.int({
      default: 120_000,
      min: 0,
      description:
        'A half-way batch is recovered only when its state is older than this, so a request still working on it is left alone, in ms.',
    }),
  }),
  (v) => ({
    entriesUrl: v.ENTRIES_URL,
    employeesUrl: v.EMPLOYEES_URL,
    recoveryIntervalMs: v.PAYOUT_RECOVERY_INTERVAL_MS,
    recoveryGraceMs: v.PAYOUT_RECOVERY_GRACE_MS,
    entriesTimeoutMs: v.PAYOUT_ENTRIES_TIMEOUT_MS,
    reservationMs: v.PAYOUT_RESERVATION_MS,
  }),
);
