import { ensureInfra } from './infra/infra';

/**
 * Integration tests need a MongoDB-wire server and RabbitMQ. `npm test` starts them once and passes
 * TEST_* variables; a direct `jest` run starts (or reuses) them here and leaves them running.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_MONGO_URL && process.env.TEST_AMQP_URL) return;
  const infra = await ensureInfra('test');
  process.env.TEST_MONGO_URL = infra.mongoUrl;
  process.env.TEST_AMQP_URL = infra.amqpUrl;
  if (infra.managementUrl) process.env.TEST_AMQP_MANAGEMENT_URL = infra.managementUrl;
}
