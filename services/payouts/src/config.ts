import { serviceEntry } from '@travel/contracts';
import { env, envSection, serviceConfig } from '@travel/platform';

export const SERVICE = 'payouts';
export const DEFAULT_PORT = serviceEntry('payouts').port;

/** The shared settings plus the two services a batch needs and the recovery job (docs/configuration.md, "Payouts"). */
export const configSchema = serviceConfig(
  SERVICE,
  DEFAULT_PORT,
  envSection('payouts', {
    ENTRIES_URL: env.string({
      default: 'http://127.0.0.1:8082',
      type: 'URL',
      description:
        'entries: the internal payout routes that reserve, mark paid out, release and undo a batch’s entries (docs/decisions/0075). Unreachable: creating or deleting a batch answers `503 SERVICE_UNAVAILABLE` and nothing is paid (the recovery finishes).',
    }),
    EMPLOYEES_URL: env.string({
      default: 'http://127.0.0.1:8081',
      type: 'URL',
      description:
        'employees: the payees’ names and bank data for a payment file, read at download and never stored (docs/decisions/0076). Unreachable: the download answers `503 SERVICE_UNAVAILABLE`.',
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
  }),
);
