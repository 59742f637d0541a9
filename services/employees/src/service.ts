import { EnvReader, readBaseConfig, startService, type StartOptions } from '@travel/platform';
import { EmployeesApp } from './app/employees';
import { internalRoutes } from './http/internal';
import { publicRoutes } from './http/routes';
import { EMPLOYEES_COLLECTION, registerModels } from './infra/models';

export const SERVICE = 'employees';
export const DEFAULT_PORT = 8081;

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const reader = new EnvReader(env);
  const config = readBaseConfig(SERVICE, DEFAULT_PORT, reader);
  reader.done();
  return config;
}

export function startEmployeesService(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, nudgeOutbox }) => {
      const models = registerModels(mongo);
      const app = new EmployeesApp(models, nudgeOutbox);
      return { api: publicRoutes(app, models), internal: internalRoutes(models), outboxCollections: [EMPLOYEES_COLLECTION] };
    },
    options,
  );
}
