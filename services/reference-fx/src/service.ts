import { EnvReader, readBaseConfig, startService, type StartOptions } from '@travel/platform';
import { ReferenceDataApp } from './app/reference-data';
import { referenceDataRoutes } from './http/reference-data-routes';
import { ALLOW_LISTS_COLLECTION, AllowListsStore, allowListModel } from './infra/allow-lists-store';

export const SERVICE = 'reference-fx';
export const DEFAULT_PORT = 8085;

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const reader = new EnvReader(env);
  const config = readBaseConfig(SERVICE, DEFAULT_PORT, reader);
  reader.done();
  return config;
}

/** Reference data (municipalities, statutory rates, allow-lists); exchange rates are not built yet (501). */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions) =>
  startService(
    readConfig(env),
    ({ mongo, nudgeOutbox }) => {
      // Reference data: municipality lists, per-diem rate table, the company's allow-lists.
      const referenceData = new ReferenceDataApp(new AllowListsStore(allowListModel(mongo), nudgeOutbox));
      return {
        api: referenceDataRoutes(referenceData),
        outboxCollections: [ALLOW_LISTS_COLLECTION],
        notImplemented: ['/api/v1/reference/exchange-rates'],
      };
    },
    options,
  );
