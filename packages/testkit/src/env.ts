import { randomBytes, type KeyObject } from 'node:crypto';
import mongoose from 'mongoose';
import {
  CONTEXT_HEADER,
  generateSigningKey,
  keyringText,
  mintContext,
  privateKeyFromText,
  type CallerContext,
} from '@travel/platform';
// The registry itself (testkit does not depend on the contracts package; it only needs the names).
import { SERVICE_NAMES } from '../../../contracts/src/services';
import { createVhost, deleteVhost, recordedInfra, type Infra } from './infra/infra';

export interface TestEnv {
  /** Environment for services started in this test file: own vhost, own databases, fast retries. */
  vars: Record<string, string>;
  infra: Pick<Infra, 'mongoUrl' | 'amqpUrl' | 'managementUrl'>;
  vhost: string;
  amqpUrl: string;
  dbPrefix: string;
  /**
   * The private key every process of this environment signs its contexts with. Tests only: a deployment
   * gives each process its own (docs/decisions/0100); tests of that separation start a process with keys
   * of their own (INTERNAL_SIGNING_KEY, INTERNAL_TRUSTED_KEYS).
   */
  signingKey: KeyObject;
  /** Headers a gateway would send for this caller (for calling a service directly). */
  callerHeaders(caller: Partial<CallerContext> & { tenantId: string }): Record<string, string>;
  /** Headers of a call from service `issuer` to the `/internal` routes of service `audience`. */
  serviceHeaders(issuer: string, audience: string): Record<string, string>;
  cleanup(): Promise<void>;
}

export function testInfra(): Pick<Infra, 'mongoUrl' | 'amqpUrl' | 'managementUrl'> {
  const mongoUrl = process.env.TEST_MONGO_URL;
  const amqpUrl = process.env.TEST_AMQP_URL;
  if (mongoUrl && amqpUrl) return { mongoUrl, amqpUrl, managementUrl: process.env.TEST_AMQP_MANAGEMENT_URL };
  const recorded = recordedInfra('test');
  if (recorded) return recorded;
  throw new Error('no test infrastructure: run the tests with `npm test`');
}

/** One isolated environment per test file, so files can run in parallel on one broker and server. */
export async function createTestEnv(name: string, overrides: Record<string, string> = {}): Promise<TestEnv> {
  const infra = testInfra();
  const id = `${name
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 20)
    .toLowerCase()}${randomBytes(3).toString('hex')}`;
  const vhost = `t-${id}`;
  const amqpUrl = await createVhost(infra, vhost);
  const dbPrefix = `t_${id}_`;
  const keys = generateSigningKey();
  const signingKey = privateKeyFromText(keys.privateKey);
  const vars: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    OPS_PORT: '0',
    MONGO_URL: infra.mongoUrl,
    MONGO_DB_PREFIX: dbPrefix,
    AMQP_URL: amqpUrl,
    INTERNAL_SIGNING_KEY: keys.privateKey,
    INTERNAL_TRUSTED_KEYS: keyringText(Object.fromEntries(SERVICE_NAMES.map((name) => [name, keys.publicKey]))),
    WEBHOOK_SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32',
    WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms',
    WEBHOOK_TIMEOUT_MS: '2000',
    // Consumer back-off in milliseconds rather than minutes: 100, 200, 400, 800 ms, parked at attempt 40.
    CONSUMER_RETRY_BASE_MS: '100',
    CONSUMER_RETRY_MAX_DELAY_MS: '800',
    CONSUMER_RETRY_MAX_ATTEMPTS: '40',
    VALIDATE_RESPONSES: 'true',
    // No load balancer to wait for; a stop in a test drains what is in flight for 3 s at most (0216).
    SHUTDOWN_READINESS_PAUSE_MS: '0',
    SHUTDOWN_DRAIN_TIMEOUT_MS: '3000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    OTEL_SDK_DISABLED: 'true',
    ...overrides,
  };
  return {
    vars,
    infra,
    vhost,
    amqpUrl,
    dbPrefix,
    signingKey,
    callerHeaders(caller) {
      const ctx: CallerContext = {
        kind: 'caller',
        market: 'CZ',
        baseCurrency: 'CZK',
        employeeId: 'test-employee',
        apiKeyId: 'test-key',
        permissions: [],
        requestId: 'test',
        ...caller,
      };
      return { [CONTEXT_HEADER]: mintContext(ctx, signingKey), 'content-type': 'application/json' };
    },
    serviceHeaders(issuer, audience) {
      const ctx = { kind: 'service', service: issuer, audience, requestId: 'test' } as const;
      return { [CONTEXT_HEADER]: mintContext(ctx, signingKey), 'content-type': 'application/json' };
    },
    async cleanup() {
      await deleteVhost(infra, vhost);
      const conn = await mongoose.createConnection(infra.mongoUrl).asPromise();
      try {
        const { databases } = await conn.db!.admin().listDatabases();
        for (const db of databases) if (db.name.startsWith(dbPrefix)) await conn.useDb(db.name).dropDatabase();
      } finally {
        await conn.close();
      }
    },
  };
}
