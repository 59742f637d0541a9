import { EmployeesClient } from '@travel/contracts';
import {
  ConditionalGets,
  internalTransports,
  parseConfig,
  startOrphanSweep,
  startPeriodicJob,
  SmtpMailer,
  startService,
  type StartOptions,
} from '@travel/platform';
import { CostsApp } from './app/costs';
import { ReminderJob, remindersJob } from './app/deadline-reminders';
import { DeadlinesApp } from './app/deadlines';
import { DOCUMENTS_STORE, DocumentsApp, documentContentSweep } from './app/documents';
import { UsageApp } from './app/usage';
import { VehicleAccess } from './app/vehicle-access';
import { VehiclesApp } from './app/vehicles';
import { internalRoutes } from './http/internal';
import { publicRoutes } from './http/routes';
import { REFUSALS_COLLECTION, fleetRepositories } from './infra/repositories';
import { startUsageConsumer } from './infra/usage-consumer';

import { configSchema, SERVICE } from './config';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export function start(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics, jobs }) => {
      const repos = fleetRepositories(mongo);
      // The employees service's published client (decision 0031: a vehicle's owner, a reminder's address).
      const employees = new EmployeesClient(
        internalTransports(SERVICE, config.signingKey)('employees', config.employeesUrl),
      );
      // Who sees a vehicle and what is filed under it: asked by every public use case (0212).
      const access = new VehicleAccess(repos);
      const vehicles = new VehiclesApp(repos, employees, access);
      const mailer = config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.reminderFrom) : undefined;
      let stopReminders = async () => {};
      let orphanSweep: { stop(): Promise<void> } | undefined;
      const usage = new UsageApp(repos, logger);
      // Every public GET answers from the collections' versions (docs/decisions/0155, 0159, 0182).
      const reads = new ConditionalGets(repos.versions);
      return {
        reads,
        api: publicRoutes({
          vehicles,
          costs: new CostsApp(repos, access),
          documents: new DocumentsApp(repos, access),
          deadlines: new DeadlinesApp(repos, access, employees),
          reads,
          collections: repos,
        }),
        internal: internalRoutes(usage),
        outboxCollections: [REFUSALS_COLLECTION],
        start: async () => {
          await startUsageConsumer({ client: amqp, mongo, logger, metrics, usage });
          if (mailer)
            stopReminders = startPeriodicJob(
              remindersJob(new ReminderJob(repos, employees, mailer, logger), config.reminderIntervalMs),
              jobs,
            );
          else logger.warn('SMTP_URL is not set: deadline reminders are not sent');
          // Document bytes a crash left without their metadata (docs/decisions/0114).
          orphanSweep = startOrphanSweep({
            store: DOCUMENTS_STORE,
            sweep: documentContentSweep(repos),
            jobs,
          });
        },
        stop: async () => {
          await stopReminders();
          await orphanSweep?.stop();
          mailer?.close();
        },
      };
    },
    options,
  );
}
