import type { Router } from 'express';
import {
  apiRouter,
  CollectionVersions,
  ConditionalGets,
  parseConfig,
  startPeriodicJob,
  startService,
  type ServiceDeps,
  type StartOptions,
} from '@travel/platform';
import { FxImporter, type FxConfig } from './app/fx-import';
import { FxRatesApp } from './app/fx-rates';
import { ReferenceDataApp } from './app/reference-data';
import { configSchema } from './config';
import { exchangeRatesRoutes } from './http/exchange-rates-routes';
import { fxInternalRoutes } from './http/fx-internal-routes';
import { readHistoryFeeds, readRecordedFeeds } from './infra/fx-seed-files';
import { FxStore } from './infra/fx-store';
import { referenceDataRoutes } from './http/reference-data-routes';
import { ALLOW_LISTS_COLLECTION, AllowListsStore } from './infra/allow-lists-store';
import { PerDiemPolicyApp } from './app/per-diem-policy';
import { perDiemPolicyInternalRoutes, perDiemPolicyRoutes } from './http/per-diem-policy-routes';
import { PER_DIEM_POLICIES_COLLECTION, PerDiemPolicyStore } from './infra/per-diem-policy-store';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

/** Exchange rates (HNB, ECB, CNB, NBP) and conversion; municipalities, statutory rates, allow-lists, per-diem policies. */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions & { fetch?: typeof fetch }) => {
  const config = readConfig(env);
  return startService(
    config,
    (deps) => {
      const fx = buildFx(deps, config.fx, options?.fetch);
      // The companies' allow-lists and per-diem policies answer from their collection versions (0155, 0159).
      const versions = new CollectionVersions(deps.mongo);
      const reads = new ConditionalGets(versions);
      const referenceData = new ReferenceDataApp(new AllowListsStore(deps.mongo, versions));
      const policies = new PerDiemPolicyApp(new PerDiemPolicyStore(deps.mongo, versions));
      const api = apiRouter();
      api.use(fx.api);
      api.use(referenceDataRoutes(referenceData, reads));
      api.use(perDiemPolicyRoutes(policies, reads));
      const internal = apiRouter();
      internal.use(fx.internal);
      internal.use(perDiemPolicyInternalRoutes(policies));
      return {
        api,
        reads,
        internal,
        outboxCollections: [ALLOW_LISTS_COLLECTION, PER_DIEM_POLICIES_COLLECTION],
        migrate: fx.seed,
        start: fx.start,
        stop: fx.stop,
      };
    },
    options,
  );
};

interface FxParts {
  api: Router;
  internal: Router;
  importer: FxImporter;
  /** Loads the history feeds of FX_HISTORY_DIR, then the recorded feeds of FX_SEED_DIR (only publications not stored yet). */
  seed: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The exchange-rate half of reference-fx: storage, importer, public and internal routes. */
function buildFx(deps: ServiceDeps, config: FxConfig, fetchImpl: typeof fetch = fetch): FxParts {
  const store = FxStore.open(deps.mongo);
  const importer = new FxImporter(store, deps.logger, deps.metrics, fetchImpl);
  const rates = new FxRatesApp(store);
  let stopSchedule: (() => Promise<void>) | undefined;
  return {
    api: exchangeRatesRoutes(rates),
    internal: fxInternalRoutes(rates),
    importer,
    seed: async () => {
      // The real history first (decision 0189): where it and the recorded feeds share a date, the history's
      // publication is the one kept (the recorded ones keep what is stored).
      if (config.historyDir) {
        const started = Date.now();
        const outcomes = await importer.seedHistory(await readHistoryFeeds(config.historyDir));
        const refused = outcomes.filter((o) => !o.ok);
        if (refused.length) deps.logger.warn({ refused }, 'some FX history feeds were refused');
        const stored = outcomes.reduce((n, o) => n + (o.ok ? o.stored : 0), 0);
        const unchanged = outcomes.filter((o) => o.ok && o.unchanged).length;
        deps.logger.info(
          { files: outcomes.length, unchanged, stored, ms: Date.now() - started },
          'FX history directory imported',
        );
      }
      if (!config.seedDir) return;
      const outcomes = await importer.seed(await readRecordedFeeds(config.seedDir));
      const refused = outcomes.filter((o) => !o.ok);
      if (refused.length) deps.logger.warn({ refused }, 'some recorded FX feeds were refused');
    },
    start: async () => {
      if (config.importEnabled) stopSchedule = startPeriodicJob(importer.importJob(config), deps.jobs);
    },
    stop: async () => stopSchedule?.(),
  };
}
