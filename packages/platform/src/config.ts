import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { CALLER_CONTEXT_ISSUER } from './context';
import { parseKeyring, privateKeyFromText, rawKey, type Keyring } from './context-keys';
import { registeredService } from '@travel/contracts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './messaging/retry';

// Configuration is read from the environment once at boot, by one zod schema per service (built from the
// shared parts below). Every problem is collected and reported together, each naming its variable, so a
// misconfigured pod fails fast with the full list instead of one variable per restart.
// docs/configuration.md is generated from these schemas (`npm run config:generate`, checked by `npm test`).
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

export type Env = Record<string, string | undefined>;

/** What the configuration page says about one variable. */
export interface EnvDoc {
  /** The accepted values, e.g. `integer 0–65535`. */
  type: string;
  /** The default as shown (markdown); absent means required. */
  default?: string;
  description: string;
  /** The page section whose table lists the variable (see `envSection`). */
  section?: string;
  /** Key material: a short or malformed value stops the start, and no message repeats it (0101). */
  secret?: boolean;
}

/** The documentation of every variable schema built with `env.*` (docs/configuration.md is made from it). */
export const envDocs = z.registry<EnvDoc>();

/** One environment variable: a raw string (or unset) in, a typed value out. */
export type EnvVar<T = unknown> = z.ZodType<T, string | undefined>;
export type EnvShape = Record<string, EnvVar>;

const code = (value: string) => `\`${value}\``;

/**
 * An unset or empty variable reaches `read` as undefined (so the default applies: a variable can't be set
 * to "" on purpose). A problem is a phrase that follows the variable's name ("is required"); one that
 * starts with ':' is appended directly ("WEBHOOK_RETRY_SCHEDULE: …").
 */
function variable<T>(doc: EnvDoc, read: (raw: string | undefined, problem: (message: string) => void) => T): EnvVar<T> {
  const schema = z
    .string()
    .optional()
    .transform((value, ctx) => {
      const problems: string[] = [];
      const result = read(value === '' ? undefined : value, (message) => problems.push(message));
      for (const message of problems) ctx.addIssue({ code: 'custom', message, input: value });
      return result;
    });
  return schema.register(envDocs, doc);
}

/** A required variable read by `parse`, whose thrown message is the problem; `fallback` then. */
function requiredVariable<T, F>(doc: EnvDoc, parse: (text: string) => T, fallback: F): EnvVar<T | F> {
  return variable<T | F>(doc, (raw, problem) => {
    if (raw === undefined) {
      problem('is required');
      return fallback;
    }
    try {
      return parse(raw);
    } catch (err) {
      problem((err as Error).message);
      return fallback;
    }
  });
}

interface Described {
  description: string;
}

const required = '**required**';

/** Builders of variable schemas; each carries its documentation. */
export const env = {
  /** A string; without a default, the variable is required. */
  string(o: Described & { default?: string; type?: string }): EnvVar<string> {
    return variable(
      {
        type: o.type ?? 'string',
        default: o.default === undefined ? required : code(o.default),
        description: o.description,
      },
      (raw, problem) => {
        if (raw !== undefined) return raw;
        if (o.default !== undefined) return o.default;
        problem('is required');
        return '';
      },
    );
  },

  /** A string that may stay unset. */
  optional(o: Described & { type?: string; default?: string }): EnvVar<string | undefined> {
    return variable(
      { type: o.type ?? 'string', default: o.default ?? 'unset', description: o.description },
      (raw) => raw,
    );
  },

  /** Plain decimal digits only: `0x10`, `1e3` or blanks are typos, not numbers. */
  int(o: Described & { default: number; min?: number; max?: number; note?: string }): EnvVar<number> {
    const min = o.min ?? 0;
    const max = o.max ?? Number.MAX_SAFE_INTEGER;
    const type = max === Number.MAX_SAFE_INTEGER ? `integer ≥ ${min}` : `integer ${min}–${max}`;
    return variable(
      { type, default: code(String(o.default)) + (o.note ? ` (${o.note})` : ''), description: o.description },
      (raw, problem) => {
        if (raw === undefined) return o.default;
        const value = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
        if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
        problem(`must be an integer between ${min} and ${max}, got "${raw}"`);
        return o.default;
      },
    );
  },

  /** `true`/`false`, `1`/`0` or `yes`/`no`, any case. */
  bool(o: Described & { default: boolean }): EnvVar<boolean> {
    return variable(
      { type: 'boolean', default: code(String(o.default)), description: o.description },
      (raw, problem) => {
        if (raw === undefined) return o.default;
        if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
        if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
        problem(`must be true or false, got "${raw}"`);
        return o.default;
      },
    );
  },

  /** Comma-separated; blanks around the commas and empty items are ignored. */
  list(o: Described & { default?: string[]; type?: string }): EnvVar<string[]> {
    const fallback = o.default ?? [];
    return variable(
      {
        type: o.type ?? 'comma-separated list',
        default: fallback.length ? code(fallback.join(',')) : 'empty',
        description: o.description,
      },
      (raw) =>
        raw === undefined
          ? fallback
          : raw
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
    );
  },

  /** An http(s) URL. */
  url(o: Described & { default: string }): EnvVar<string> {
    return variable({ type: 'http(s) URL', default: code(o.default), description: o.description }, (raw, problem) => {
      const value = raw ?? o.default;
      if (!/^https?:\/\//.test(value)) problem(`must be an http(s) URL, got "${value}"`);
      return value;
    });
  },

  /** One of a fixed set of words. */
  oneOf<const W extends string>(o: Described & { values: readonly W[]; default: W }): EnvVar<W> {
    return variable(
      { type: o.values.map(code).join(', '), default: code(o.default), description: o.description },
      (raw, problem) => {
        if (raw === undefined) return o.default;
        if ((o.values as readonly string[]).includes(raw)) return raw as W;
        problem(`must be one of ${o.values.join(', ')}, got "${raw}"`);
        return o.default;
      },
    );
  },

  /**
   * A required text turned into a value by `parse`, whose thrown message becomes the problem. Made for key
   * material: a message must never repeat the text (docs/decisions/0101).
   */
  required<T>(o: Described & { type: string; secret?: boolean }, parse: (text: string) => T): EnvVar<T | undefined> {
    const doc = { type: o.type, default: required, description: o.description, ...(o.secret ? { secret: true } : {}) };
    return requiredVariable(doc, parse, undefined);
  },

  /** A required random key of exactly `bytes` bytes in base64: a shorter one stops the start (0101). */
  secretKey(o: Described & { bytes: number }): EnvVar<string> {
    const doc = {
      type: `${o.bytes} random bytes, base64`,
      default: required,
      description: o.description,
      secret: true,
    };
    return requiredVariable(
      doc,
      (text) => {
        rawKey(text, o.bytes);
        return text.trim();
      },
      '',
    );
  },

  /** A text turned into a value by `parse`, whose thrown message becomes the problem (`fallback` then). */
  parsed<T>(
    o: Described & { type: string; default: string; defaultLabel?: string; fallback: T },
    parse: (text: string) => T,
  ): EnvVar<T> {
    return variable(
      { type: o.type, default: o.defaultLabel ?? (o.default ? code(o.default) : 'empty'), description: o.description },
      (raw, problem) => {
        try {
          return parse(raw ?? o.default);
        } catch (err) {
          problem(`: ${(err as Error).message}`);
          return o.fallback;
        }
      },
    );
  },
};

/** Files the variables of `shape` under a section of the configuration page. */
export function envSection<S extends EnvShape>(section: string, shape: S): S {
  for (const schema of Object.values(shape)) envDocs.add(schema, { ...envDocs.get(schema)!, section });
  return shape;
}

type Values<S extends EnvShape> = { [K in keyof S]: z.output<S[K]> };
type Check<S extends EnvShape> = (
  values: Values<S>,
  problem: (variable: keyof S & string, message: string) => void,
) => void;

/** The configuration schema of one process: its variables, and the typed configuration they make. */
export interface ConfigSchema<T> {
  service: string;
  shape: EnvShape;
  schema: z.ZodType<T, Env>;
}

/** A process's schema from its variables, checks across variables, and the mapping to its config type. */
export function defineConfig<S extends EnvShape, T>(
  service: string,
  shape: S,
  build: (values: Values<S>) => T,
  checks: Check<S>[] = [],
): ConfigSchema<T> {
  const schema = z
    .object(shape)
    // Checks across variables run even when a variable was invalid (it then holds its default), so the
    // list names every problem at once.
    .superRefine(
      (values, ctx) => {
        for (const check of checks)
          check(values as Values<S>, (variable, message) =>
            ctx.addIssue({
              code: 'custom',
              message,
              path: [variable],
              input: (values as Record<string, unknown>)[variable],
            }),
          );
      },
      { when: () => true },
    )
    .transform((values) => build(values as Values<S>));
  return { service, shape, schema: schema as unknown as z.ZodType<T, Env> };
}

const problemOf = (issue: z.core.$ZodIssue): string => {
  const name = issue.path.map(String).join('.');
  return issue.message.startsWith(':') ? `${name}${issue.message}` : `${name} ${issue.message}`;
};

/** Parses the environment with a process's schema; throws ConfigError listing every problem. */
export function parseConfig<T>(config: ConfigSchema<T>, source: Env = process.env): T {
  const result = config.schema.safeParse(source);
  if (!result.success) throw new ConfigError(result.error.issues.map(problemOf));
  return result.data;
}

// ---- The shared parts -------------------------------------------------------------------------------

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
  /** Back-off of consumers' failed messages (CONSUMER_RETRY_*). */
  consumerRetry: RetryPolicy;
}

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
  consumerRetry: {
    baseMs: v.CONSUMER_RETRY_BASE_MS,
    maxDelayMs: v.CONSUMER_RETRY_MAX_DELAY_MS,
    maxAttempts: v.CONSUMER_RETRY_MAX_ATTEMPTS,
  },
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
