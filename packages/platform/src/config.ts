import { readRetryPolicy, type RetryPolicy } from './messaging/retry';

// Typed configuration read from the environment once at boot. Every problem is collected and reported
// together, so a misconfigured pod fails fast with the full list instead of one variable per restart.
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

export class EnvReader {
  private readonly problems: string[] = [];
  constructor(private readonly env: Env = process.env) {}

  string(name: string, fallback?: string): string {
    const value = this.env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    this.problems.push(`${name} is required`);
    return '';
  }

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  int(name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    // Plain decimal digits only: `0x10`, `1e3` or blanks are typos, not numbers.
    const value = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  list(name: string, fallback: string[] = []): string[] {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  /** Records a problem found by a caller-specific check. */
  problem(message: string): void {
    this.problems.push(message);
  }

  /** Throws ConfigError when anything read so far was invalid. */
  done(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}

/** Settings every service shares. */
export interface BaseConfig {
  serviceName: string;
  port: number;
  host: string;
  mongoUrl: string;
  /** Database of this service: one database per bounded context. */
  mongoDbName: string;
  amqpUrl: string;
  internalContextSecret: string;
  logLevel: string;
  validateResponses: boolean;
  /** Back-off of consumers' failed messages (CONSUMER_RETRY_*). */
  consumerRetry: RetryPolicy;
}

export function readBaseConfig(serviceName: string, defaultPort: number, env: EnvReader): BaseConfig {
  const prefix = env.string('MONGO_DB_PREFIX', 'travel_');
  return {
    serviceName,
    port: env.int('PORT', defaultPort, { max: 65535 }),
    host: env.string('HOST', '127.0.0.1'),
    mongoUrl: env.string('MONGO_URL', 'mongodb://127.0.0.1:27017'),
    mongoDbName: env.string('MONGO_DB_NAME', `${prefix}${serviceName.replace(/-/g, '_')}`),
    amqpUrl: env.string('AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672'),
    internalContextSecret: env.string('INTERNAL_CONTEXT_SECRET'),
    logLevel: env.string('LOG_LEVEL', 'info'),
    validateResponses: env.bool('VALIDATE_RESPONSES', false),
    consumerRetry: readRetryPolicy(env),
  };
}
