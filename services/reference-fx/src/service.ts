import { Router } from 'express';
import { EnvReader, readBaseConfig, startService, type StartOptions } from '@travel/platform';
import { readFxConfig } from './fx-config';
import { buildFx } from './fx';

export const SERVICE = 'reference-fx';
export const DEFAULT_PORT = 8085;

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const reader = new EnvReader(env);
  const config = { ...readBaseConfig(SERVICE, DEFAULT_PORT, reader), fx: readFxConfig(reader) };
  reader.done();
  return config;
}

/** Exchange rates (HNB, ECB, CNB, NBP) and conversion; the statutory reference data joins here. */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions & { fetch?: typeof fetch }) => {
  const config = readConfig(env);
  return startService(
    config,
    (deps) => {
      const fx = buildFx(deps, config.fx, options?.fetch);
      const api = Router();
      api.use(fx.api);
      const internal = Router();
      internal.use(fx.internal);
      return {
        api,
        internal,
        // Resources of this context not built yet: answered 501 until they are.
        notImplemented: [
          '/api/v1/reference/slovenian-municipalities',
          '/api/v1/reference/croatian-municipalities',
          '/api/v1/reference/per-diem-rates',
          '/api/v1/reference/countries',
          '/api/v1/reference/currencies',
        ],
        migrate: fx.seed,
        start: fx.start,
        stop: fx.stop,
      };
    },
    options,
  );
};
