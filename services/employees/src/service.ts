import { parseConfig, startService, type StartOptions } from '@travel/platform';
import { ApiKeysApp } from './app/api-keys';
import { EmployeesApp } from './app/employees';
import { CostCentersApp, DepartmentsApp } from './app/org';
import { internalRoutes } from './http/internal';
import { publicRoutes } from './http/routes';
import { backfillEmployeeStorage } from './infra/migrations';
import { EMPLOYEES_COLLECTION, registerModels } from './infra/models';

import { configSchema } from './config';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export function startEmployeesService(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, nudgeOutbox }) => {
      const models = registerModels(mongo);
      const api = publicRoutes({
        models,
        employees: new EmployeesApp(models, nudgeOutbox),
        departments: new DepartmentsApp(models),
        costCenters: new CostCentersApp(models),
        apiKeys: new ApiKeysApp(models),
      });
      return {
        api,
        internal: internalRoutes(models),
        outboxCollections: [EMPLOYEES_COLLECTION],
        // Runs before the indexes are created: the unique e-mail index needs every document's emailKey.
        migrate: async () => {
          await backfillEmployeeStorage(models);
        },
      };
    },
    options,
  );
}
