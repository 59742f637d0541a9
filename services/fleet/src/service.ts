import { EnvReader, readBaseConfig, startService, type StartOptions } from '@travel/platform';
import { CostsApp } from './app/costs';
import { DocumentsApp } from './app/documents';
import { UsageApp } from './app/usage';
import { VehiclesApp } from './app/vehicles';
import { internalRoutes } from './http/internal';
import { publicRoutes } from './http/routes';
import { EmployeesClient } from './infra/employees-client';
import { REFUSALS_COLLECTION, registerModels } from './infra/models';
import { startUsageConsumer } from './infra/usage-consumer';

export const SERVICE = 'fleet';
export const DEFAULT_PORT = 8083;

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const reader = new EnvReader(env);
  const config = {
    ...readBaseConfig(SERVICE, DEFAULT_PORT, reader),
    /** The employees service, asked whether a vehicle's owner is an employee of the company. */
    employeesUrl: reader.string('EMPLOYEES_URL', 'http://127.0.0.1:8081'),
  };
  reader.done();
  return config;
}

export function start(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics, nudgeOutbox }) => {
      const models = registerModels(mongo);
      const vehicles = new VehiclesApp(models, new EmployeesClient(config.employeesUrl, config.internalContextSecret));
      const usage = new UsageApp(models, nudgeOutbox, logger);
      return {
        api: publicRoutes({
          vehicles,
          costs: new CostsApp(models, vehicles),
          documents: new DocumentsApp(models, vehicles),
        }),
        internal: internalRoutes(usage),
        outboxCollections: [REFUSALS_COLLECTION],
        start: () => startUsageConsumer({ client: amqp, mongo, logger, metrics, usage }),
      };
    },
    options,
  );
}

export const startFleetService = start;
