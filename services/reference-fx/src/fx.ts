import type { Router } from 'express';
import type { ServiceDeps } from '@travel/platform';
import { FxImporter } from './app/fx-import';
import { FxRatesApp } from './app/fx-rates';
import type { FxConfig } from './fx-config';
import { exchangeRatesRoutes } from './http/exchange-rates-routes';
import { fxInternalRoutes } from './http/fx-internal-routes';
import { readRecordedFeeds } from './infra/fx-seed-files';
import { FxStore } from './infra/fx-store';

export interface FxParts {
  api: Router;
  internal: Router;
  importer: FxImporter;
  /** Loads the recorded feeds of FX_SEED_DIR (only publications not stored yet). */
  seed: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The exchange-rate half of reference-fx: storage, importer, public and internal routes. */
export function buildFx(deps: ServiceDeps, config: FxConfig, fetchImpl: typeof fetch = fetch): FxParts {
  const store = FxStore.open(deps.mongo);
  const importer = new FxImporter(store, deps.logger, deps.metrics, fetchImpl);
  const rates = new FxRatesApp(store);
  let stopSchedule: (() => void) | undefined;
  return {
    api: exchangeRatesRoutes(rates),
    internal: fxInternalRoutes(rates),
    importer,
    seed: async () => {
      if (!config.seedDir) return;
      const outcomes = await importer.seed(await readRecordedFeeds(config.seedDir));
      const refused = outcomes.filter((o) => !o.ok);
      if (refused.length) deps.logger.warn({ refused }, 'some recorded FX feeds were refused');
    },
    start: async () => {
      if (config.importEnabled) stopSchedule = importer.schedule(config);
    },
    stop: async () => stopSchedule?.(),
  };
}
