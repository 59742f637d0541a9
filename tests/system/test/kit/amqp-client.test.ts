// The AMQP client on a real broker: a publish that closes the channel does not stop later publishes,
// and consumer queues report their depth for the lag alert.
import {
  AmqpClient,
  DOMAIN_EXCHANGE,
  Metrics,
  PublishError,
  createLogger,
  declareDomainExchange,
  startConsumer,
} from '@travel/platform';
import { createTestEnv, eventually, type TestEnv } from '@travel/testkit';

const logger = createLogger('amqp-test', 'silent');

describe('AmqpClient', () => {
  let env: TestEnv;
  let client: AmqpClient;
  beforeAll(async () => {
    env = await createTestEnv('amqp');
    client = new AmqpClient(env.amqpUrl, logger, 'amqp-test');
    await client.start();
    await client.onConnect(declareDomainExchange);
  });
  afterAll(async () => {
    await client?.stop();
    await env?.cleanup();
  });

  it('recovers its publish channel after a publish to a missing exchange closed it', async () => {
    const failed = await client
      .publish('no.such.exchange', 'x', Buffer.from('{}'), { messageId: 'm1' })
      .catch((e) => e);
    expect(failed).toBeInstanceOf(PublishError);

    const ch = await client.channel();
    await ch.assertQueue('amqp-test.sink', { durable: false, autoDelete: false });
    await ch.bindQueue('amqp-test.sink', DOMAIN_EXCHANGE, 'amqp.test');
    await eventually(async () => {
      try {
        await client.publish(DOMAIN_EXCHANGE, 'amqp.test', Buffer.from('{}'), { messageId: 'm2' });
        return true;
      } catch {
        return undefined;
      }
    }, 5000);
    expect((await ch.checkQueue('amqp-test.sink')).messageCount).toBe(1);
  });

  it('reports a consumer queue depth as amqp_consumer_lag_messages', async () => {
    const metrics = new Metrics('amqp-test');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await startConsumer({
      client,
      logger,
      metrics,
      prefetch: 1,
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
      queue: { name: 'amqp-test.lag', bindings: ['lag.#'] },
      handle: () => gate,
    });
    for (let i = 0; i < 4; i++)
      await client.publish(DOMAIN_EXCHANGE, 'lag.event', Buffer.from(JSON.stringify({ id: `e${i}` })), {
        messageId: `e${i}`,
      });
    // One message is held by the consumer (prefetch 1), three wait.
    const text = await eventually(async () => {
      const t = await metrics.registry.metrics();
      return /amqp_consumer_lag_messages\{[^}]*queue="amqp-test.lag"[^}]*\} 3/.test(t) ? t : undefined;
    }, 5000);
    expect(text).toContain('amqp_consumer_lag_messages');
    release();
  });
});
