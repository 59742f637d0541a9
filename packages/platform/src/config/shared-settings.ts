// The settings every service shares (ports, keys, the store and the broker, the consumers' back-off) and
// the schema of a service built on `startService`: its own variables on top of these.
import type { KeyObject } from 'node:crypto';
import { registeredService } from '@travel/contracts';
import { CALLER_CONTEXT_ISSUER } from '../context';
import { parseKeyring, privateKeyFromText, type Keyring } from '../context-keys';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../messaging/retry';
import { defineConfig, type Check, type ConfigSchema, type Values } from './config-schema';
import { env, envSection, type EnvShape, type EnvVar } from './env-variables';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What every process with an HTTP port reads, the gateway included. */
export const httpEnv = (defaultPort: number, defaultOpsPort: number) =>
  envSection('every-service', {
    PORT: env.int({
      default: defaultPort,
      max: 65535,
      description: `HTTP port of the API (and a service's \`/internal\` routes); \`0\` picks a free port, which the tests use.`,
    }),
    OPS_PORT: env.int({
      default: defaultOpsPort,
      max: 65535,
      description:
        'HTTP port of `/healthz`, `/readyz` and `/metrics`, which are never served on `PORT`, so nothing reaches them through the gateway (decision 0097). Probes and Prometheus use it; `0` picks a free port.',
    }),
    HOST: env.string({
      default: '127.0.0.1',
      description:
        'Address to listen on. **In a container set `0.0.0.0`.** With the default, the pod accepts only loopback, so probes and Services can’t reach it (see [Kubernetes](#kubernetes)).',
    }),
    INTERNAL_SIGNING_KEY: env.required(
      {
        type: 'Ed25519 private key: 32 bytes, base64',
        secret: true,
        description:
          'This process’s own key: the gateway signs caller contexts with it, a service the contexts of its calls to other services. **Secret; one per process.** See [internal signing keys](#internal-signing-keys).',
      },
      privateKeyFromText,
    ),
    LOG_LEVEL: env.oneOf({
      values: LOG_LEVELS,
      default: 'info',
      description: 'Log level (pino).',
    }),
    ...shutdownEnv(),
  });

/** How a process stops on SIGTERM (docs/decisions/0216); the chart's grace period covers both and its preStop. */
const shutdownEnv = () => ({
  SHUTDOWN_READINESS_PAUSE_MS: env.int({
    default: 5_000,
    max: 60_000,
    description:
      'After SIGTERM, `/readyz` answers 503 for this long while the process still serves everything (each answer closing its connection), so a load balancer that probes it stops sending before the port closes. `0` skips the pause (the tests).',
  }),
  SHUTDOWN_DRAIN_TIMEOUT_MS: env.int({
    default: 15_000,
    max: 120_000,
    description:
      "Then, how long requests in flight, webhook sends and messages being handled get to finish; what is still open after it is cut off, and its unacknowledged messages go back to the queue. Keep `preStopSleepSeconds` + both pauses + a few seconds under the chart's `terminationGracePeriodSeconds`.",
  }),
});

/** The store and broker of a service (the gateway has neither). */
export const storeEnv = () =>
  envSection('every-service', {
    MONGO_URL: env.string({
      default: 'mongodb://127.0.0.1:27017',
      description:
        'MongoDB connection string **without a database name**. Each service picks its own database (below). Server selection times out after 10 s, and then the start fails.',
    }),
    MONGO_DB_PREFIX: env.string({ default: 'travel_', description: 'Prefix of the database name.' }),
    MONGO_DB_NAME: env.optional({
      default: '`<MONGO_DB_PREFIX><service>`',
      description:
        'Full database name; overrides the prefix rule. Set it **per service** only. Set globally, it would put every service in one database.',
    }),
    AMQP_URL: env.string({
      default: 'amqp://guest:guest@127.0.0.1:5672',
      description:
        'RabbitMQ URL. The vhost is the path (`%2F` for `/`). The client reconnects on its own (back-off 250 ms up to 5 s) and declares its topology again after each reconnect.',
    }),
    JOB_LEASE_MS: env.int({
      default: 60_000,
      min: 500,
      max: 3_600_000,
      description:
        'Lease of a scheduled job in `job_leases` (decision 0218): the replica running it renews it every third of this; a replica that dies while running it holds it this long at most, and the job then runs in the next period on another replica, in ms.',
    }),
    VALIDATE_RESPONSES: env.bool({
      default: false,
      description:
        'Validates every `/api/v1` response against `contracts/openapi.yaml`, so a non-conforming response becomes a 500. Tests turn it on; leave it off in production.',
    }),
  });

/** Whose contexts a service accepts (docs/decisions/0100); the gateway verifies none. */
export const trustEnv = () =>
  envSection('every-service', {
    INTERNAL_TRUSTED_KEYS: env.required(
      {
        type: 'keyring: `issuer:public key`, comma-separated',
        description:
          'The public keys this service trusts: the gateway’s (caller contexts, and its own calls) and those of the services that call this one’s `/internal` routes, e.g. `gateway:<key>,entries:<key>`. A service context from an issuer not listed is refused. See [internal signing keys](#internal-signing-keys).',
      },
      parseKeyring,
    ),
  });

/** Back-off of consumers' failed messages (decision 0041). */
export const retryEnv = () =>
  envSection('consumer-back-off', {
    CONSUMER_RETRY_BASE_MS: env.int({
      default: DEFAULT_RETRY_POLICY.baseMs,
      min: 10,
      max: 3_600_000,
      description: 'Delay after the first failure, in ms.',
    }),
    CONSUMER_RETRY_MAX_DELAY_MS: env.int({
      default: DEFAULT_RETRY_POLICY.maxDelayMs,
      min: 10,
      max: 86_400_000,
      note: '5 min',
      description: 'Upper bound of one delay, in ms; not below `CONSUMER_RETRY_BASE_MS`.',
    }),
    CONSUMER_RETRY_MAX_ATTEMPTS: env.int({
      default: DEFAULT_RETRY_POLICY.maxAttempts,
      min: 1,
      max: 1000,
      description:
        'Handling attempts, the first included, before a message that keeps failing is parked; `1` parks on the first failure. The defaults wait 1, 2, 4 … 256 s, then 5 min: about 3.5 h in all.',
    }),
  });

/** Every variable of a service built on `startService`. */
export const baseEnv = (defaultPort: number, defaultOpsPort: number) => ({
  ...httpEnv(defaultPort, defaultOpsPort),
  ...trustEnv(),
  ...storeEnv(),
  ...retryEnv(),
});

type BaseShape = ReturnType<typeof baseEnv>;

/** Settings every service shares. */
export interface BaseConfig {
  serviceName: string;
  port: number;
  /** Port of /healthz, /readyz and /metrics. */
  opsPort: number;
  host: string;
  mongoUrl: string;
  /** Database of this service: one database per bounded context. */
  mongoDbName: string;
  amqpUrl: string;
  /** This process's Ed25519 private key: it signs the service contexts of its calls (INTERNAL_SIGNING_KEY). */
  signingKey: KeyObject;
  /** The issuers whose contexts it accepts (INTERNAL_TRUSTED_KEYS). */
  trustedKeys: Keyring;
  logLevel: string;
  validateResponses: boolean;
  /** Lease of a scheduled job (JOB_LEASE_MS, decision 0218). */
  jobLeaseMs: number;
  /** Back-off of consumers' failed messages (CONSUMER_RETRY_*). */
  consumerRetry: RetryPolicy;
  shutdown: ShutdownTimes;
}

/** SHUTDOWN_READINESS_PAUSE_MS and SHUTDOWN_DRAIN_TIMEOUT_MS (docs/decisions/0216). */
export interface ShutdownTimes {
  readinessPauseMs: number;
  drainTimeoutMs: number;
}

export const shutdownTimesOf = (v: { SHUTDOWN_READINESS_PAUSE_MS: number; SHUTDOWN_DRAIN_TIMEOUT_MS: number }) => ({
  readinessPauseMs: v.SHUTDOWN_READINESS_PAUSE_MS,
  drainTimeoutMs: v.SHUTDOWN_DRAIN_TIMEOUT_MS,
});

const retryBounds: Check<BaseShape> = (v, problem) => {
  if (v.CONSUMER_RETRY_MAX_DELAY_MS < v.CONSUMER_RETRY_BASE_MS)
    problem(
      'CONSUMER_RETRY_MAX_DELAY_MS',
      `(${v.CONSUMER_RETRY_MAX_DELAY_MS}) must not be below CONSUMER_RETRY_BASE_MS (${v.CONSUMER_RETRY_BASE_MS})`,
    );
};

const trustsTheGateway: Check<BaseShape> = (v, problem) => {
  if (v.INTERNAL_TRUSTED_KEYS && !v.INTERNAL_TRUSTED_KEYS.has(CALLER_CONTEXT_ISSUER))
    problem('INTERNAL_TRUSTED_KEYS', `must list the gateway's public key (${CALLER_CONTEXT_ISSUER}:<key>)`);
};

const baseConfigOf = (serviceName: string, v: Values<BaseShape>): BaseConfig => ({
  serviceName,
  port: v.PORT,
  opsPort: v.OPS_PORT,
  host: v.HOST,
  mongoUrl: v.MONGO_URL,
  mongoDbName: v.MONGO_DB_NAME ?? `${v.MONGO_DB_PREFIX}${serviceName.replace(/-/g, '_')}`,
  amqpUrl: v.AMQP_URL,
  signingKey: v.INTERNAL_SIGNING_KEY!,
  trustedKeys: v.INTERNAL_TRUSTED_KEYS!,
  logLevel: v.LOG_LEVEL,
  validateResponses: v.VALIDATE_RESPONSES,
  jobLeaseMs: v.JOB_LEASE_MS,
  consumerRetry: {
    baseMs: v.CONSUMER_RETRY_BASE_MS,
    maxDelayMs: v.CONSUMER_RETRY_MAX_DELAY_MS,
    maxAttempts: v.CONSUMER_RETRY_MAX_ATTEMPTS,
  },
  shutdown: shutdownTimesOf(v),
});

/**
 * The schema of a service built on `startService`: the shared variables plus its own (`shape`), mapped
 * to `BaseConfig` plus what `build` makes of its own values.
 */
export function serviceConfig<S extends EnvShape = Record<never, EnvVar>, X extends object = object>(
  serviceName: string,
  defaultPort: number,
  shape: S = {} as S,
  build: (values: Values<S>) => X = () => ({}) as X,
  checks: Check<S>[] = [],
): ConfigSchema<BaseConfig & X> {
  const full = { ...baseEnv(defaultPort, registeredService(serviceName).opsPort), ...shape };
  return defineConfig(
    serviceName,
    full,
    (v) => ({ ...baseConfigOf(serviceName, v as Values<BaseShape>), ...build(v as unknown as Values<S>) }),
    [
      retryBounds as Check<typeof full>,
      trustsTheGateway as Check<typeof full>,
      ...(checks as unknown as Check<typeof full>[]),
    ],
  );
}
