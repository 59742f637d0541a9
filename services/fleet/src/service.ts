import { EnvReader, readBaseConfig, startService, type StartOptions } from '@travel/platform';
import { CostsApp } from './app/costs';
import { DeadlinesApp, ReminderJob, scheduleReminders } from './app/deadlines';
import { DocumentsApp } from './app/documents';
import { UsageApp } from './app/usage';
import { VehiclesApp } from './app/vehicles';
import { internalRoutes } from './http/internal';
import { publicRoutes } from './http/routes';
import { EmployeesClient } from './infra/employees-client';
import { SmtpMailer } from './infra/mailer';
import { REFUSALS_COLLECTION, fleetRepositories } from './infra/repositories';
import { startUsageConsumer } from './infra/usage-consumer';

export const SERVICE = 'fleet';
export const DEFAULT_PORT = 8083;

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const reader = new EnvReader(env);
  const config = {
    ...readBaseConfig(SERVICE, DEFAULT_PORT, reader),
    /** The employees service, asked whether a vehicle's owner is an employee of the company. */
    employeesUrl: reader.string('EMPLOYEES_URL', 'http://127.0.0.1:8081'),
    /** SMTP server of the deadline reminders (nodemailer URL); unset: no reminder is sent. */
    smtpUrl: reader.optional('SMTP_URL'),
    reminderFrom: reader.string('REMINDER_FROM', 'Travel-expense fleet <fleet@travel-expense.invalid>'),
    reminderIntervalMs: reader.int('REMINDER_INTERVAL_MS', 3_600_000, { min: 100 }),
  };
  reader.done();
  return config;
}

export function start(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics, nudgeOutbox }) => {
      const repos = fleetRepositories(mongo);
      const employees = new EmployeesClient(config.employeesUrl, config.internalContextSecret);
      const vehicles = new VehiclesApp(repos, employees);
      const mailer = config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.reminderFrom) : undefined;
      let stopReminders = () => {};
      const usage = new UsageApp(repos, nudgeOutbox, logger);
      return {
        api: publicRoutes({
          vehicles,
          costs: new CostsApp(repos, vehicles),
          documents: new DocumentsApp(repos, vehicles),
          deadlines: new DeadlinesApp(repos, vehicles, employees),
        }),
        internal: internalRoutes(usage),
        outboxCollections: [REFUSALS_COLLECTION],
        start: async () => {
          await startUsageConsumer({ client: amqp, mongo, logger, metrics, usage });
          if (mailer)
            stopReminders = scheduleReminders(
              new ReminderJob(repos, employees, mailer, logger),
              config.reminderIntervalMs,
              logger,
            );
          else logger.warn('SMTP_URL is not set: deadline reminders are not sent');
        },
        stop: async () => {
          stopReminders();
          mailer?.close();
        },
      };
    },
    options,
  );
}

export const startFleetService = start;
