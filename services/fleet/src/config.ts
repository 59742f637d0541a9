import { serviceEntry } from '@travel/contracts';
import { env, envSection, serviceConfig } from '@travel/platform';

export const SERVICE = 'fleet';
export const DEFAULT_PORT = serviceEntry('fleet').port;

/** The shared settings plus employees' address and the deadline reminders (docs/configuration.md, "Fleet"). */
export const configSchema = serviceConfig(
  SERVICE,
  DEFAULT_PORT,
  envSection('fleet', {
    EMPLOYEES_URL: env.urls({
      default: 'http://127.0.0.1:8081',
      description:
        'The employees service, asked whether a `Personal` vehicle’s owner is an employee of the company (docs/decisions/0031). Unreachable: such writes answer `503 SERVICE_UNAVAILABLE`.',
    }),
    SMTP_URL: env.optional({
      type: 'nodemailer SMTP URL',
      description:
        'SMTP server of the deadline reminder e-mails (`smtp://user:pass@host:587`, `smtps://…:465`). Unset: no reminder is sent (a warning at start). `npm start` points it at a local sink that prints every e-mail.',
    }),
    REMINDER_FROM: env.string({
      default: 'Travel-expense fleet <fleet@travel-expense.invalid>',
      description: 'The `From` of the reminders.',
    }),
    REMINDER_INTERVAL_MS: env.int({
      default: 3_600_000,
      min: 100,
      description:
        'How often the reminder job looks for reminders whose day has come (each is sent once per due date), in ms: once per such period across the replicas (decision 0218).',
    }),
  }),
  (v) => ({
    /** The employees service, asked whether a vehicle's owner is an employee of the company. */
    employeesUrl: v.EMPLOYEES_URL,
    /** SMTP server of the deadline reminders (nodemailer URL); unset: no reminder is sent. */
    smtpUrl: v.SMTP_URL,
    reminderFrom: v.REMINDER_FROM,
    reminderIntervalMs: v.REMINDER_INTERVAL_MS,
  }),
);
