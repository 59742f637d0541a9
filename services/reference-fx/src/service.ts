import { apiRouter, parseConfig, startService, type StartOptions } from '@travel/platform';
import { ReferenceDataApp } from './app/reference-data';
import { configSchema } from './config';
import { buildFx } from './fx';
import { referenceDataRoutes } from './http/reference-data-routes';
import { ALLOW_LISTS_COLLECTION, AllowListsStore } from './infra/allow-lists-store';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

/** Exchange rates (HNB, ECB, CNB, NBP) and conversion; municipalities, statutory rates, allow-lists. */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions & { fetch?: typeof fetch }) => {
  const config = readConfig(env);
  return startService(
    config,
    (deps) => {
      const fx = buildFx(deps, config.fx, options?.fetch);
      const referenceData = new ReferenceDataApp(new AllowListsStore(deps.mongo, deps.nudgeOutbox));
      const api = apiRouter();
      api.use(fx.api);
      api.use(referenceDataRoutes(referenceData));
      const internal = apiRouter();
      internal.use(fx.internal);
      return {
        api,
        internal,
        outboxCollections: [ALLOW_LISTS_COLLECTION],
        migrate: fx.seed,
        start: fx.start,
        stop: fx.stop,
      };
    },
    options,
  );
};
