import type { EnvReader } from '@travel/platform';
import type { FxProvider } from './domain/fx-providers';

/** Settings of the FX importer (docs/configuration.md, "reference-fx"). */
export interface FxConfig {
  /** Fetch the providers' feeds on a schedule. Off unless set: tests and offline stacks never reach out. */
  importEnabled: boolean;
  importIntervalMinutes: number;
  importTimeoutMs: number;
  /** Further attempts after a failed fetch, each after `importRetryDelayMs` × attempt. */
  importRetries: number;
  importRetryDelayMs: number;
  urls: Record<FxProvider, string>;
  /** A directory of recorded feeds loaded at start (publications already stored are kept). */
  seedDir?: string;
}

export const DEFAULT_FEED_URLS: Readonly<Record<FxProvider, string>> = {
  HNB: 'https://api.hnb.hr/tecajn-eur/v3',
  ECB: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml',
  CNB: 'https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu/denni_kurz.txt',
  NBP: 'https://api.nbp.pl/api/exchangerates/tables/A/last/10/?format=json',
};

export function readFxConfig(reader: EnvReader): FxConfig {
  const url = (provider: FxProvider) => {
    const value = reader.string(`FX_${provider}_URL`, DEFAULT_FEED_URLS[provider]);
    if (!/^https?:\/\//.test(value)) reader.problem(`FX_${provider}_URL must be an http(s) URL, got "${value}"`);
    return value;
  };
  return {
    importEnabled: reader.bool('FX_IMPORT_ENABLED', false),
    importIntervalMinutes: reader.int('FX_IMPORT_INTERVAL_MINUTES', 60, { min: 1, max: 1440 }),
    importTimeoutMs: reader.int('FX_IMPORT_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
    importRetries: reader.int('FX_IMPORT_RETRIES', 3, { max: 10 }),
    importRetryDelayMs: reader.int('FX_IMPORT_RETRY_DELAY_MS', 2_000, { max: 60_000 }),
    urls: { HNB: url('HNB'), ECB: url('ECB'), CNB: url('CNB'), NBP: url('NBP') },
    seedDir: reader.optional('FX_SEED_DIR'),
  };
}
