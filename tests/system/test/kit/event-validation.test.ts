// Consumers validate what they receive (docs/events.md): on a real broker, an event that does not match
// the JSON Schema of its routing key (contracts/events/internal) is parked at once with reason `invalid`,
// never handed to the handler, and counted in events_invalid_total{queue,type}; a valid one is handled.
// A webhook event whose data carries a field beyond the public DTO (an e-mail, say) is refused too.
import { randomUUID } from 'node:crypto';
import {
  AmqpClient,
  DOMAIN_EXCHANGE,
  Metrics,
  createLogger,
  declareDomainExchange,
  startConsumer,
  type DomainEvent,
} from '@travel/platform';
import { createTestEnv, employeeEvent, eventually, type TestEnv } from '@travel/testkit';

const logger = createLogger('event-validation-test', 'silent');
type Channel = Awaited<ReturnType<AmqpClient['channel']>>;

describe('consumers refuse events that do not match their schema', () => {
  let env: TestEnv;
  let client: AmqpClient;
  let metrics: Metrics;
  let ch: Channel;

  beforeAll(async () => {
    env = await createTestEnv('event-validation');
    client = new AmqpClient(env.amqpUrl, logger, 'event-validation-test');
    await client.start();
    await client.onConnect(declareDomainExchange);
    metrics = new Metrics('event-validation-test');
    ch = await client.channel();
  });
  afterAll(async () => {
    await client?.stop();
    await env?.cleanup();
  });

  const publish = (key: string, body: unknown) =>
    client.publish(DOMAIN_EXCHANGE, key, Buffer.from(JSON.stringify(body)), {
      messageId: (body as { id?: string }).id ?? randomUUID(),
    });

  async function parked(queue: string): Promise<Array<{ id: string; headers: Record<string, unknown> }>> {
    const out = [];
    for (;;) {
      const msg = await ch.get(`${queue}.parking`, { noAck: true });
      if (!msg) return out;
      out.push({ id: String(msg.properties.messageId), headers: msg.properties.headers ?? {} });
    }
  }

  const invalidCount = async (queue: string, type: string) => {
    const text = await metrics.registry.metrics();
    const m = new RegExp(`events_invalid_total\\{[^}]*queue="${queue}",type="${type}"[^}]*\\} (\\d+)`).exec(text);
    return m ? Number(m[1]) : 0;
  };

  const usage = (over: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    type: 'vehicle.used',
    tenantId: 'tenant-1',
    occurredAt: new Date().toISOString(),
    data: { vehicleId: randomUUID(), entryId: randomUUID(), expenseId: randomUUID(), revision: 1, ...data },
    ...over,
  });

  it('parks an internal event that breaks its schema and handles the valid ones', async () => {
    const queue = 'kit.validation.usage';
    const handled: string[] = [];
    await startConsumer<DomainEvent>({
      client,
      logger,
      metrics,
      prefetch: 1, // in order, so the marker comes after everything published before it
      queue: { name: queue, bindings: ['entries.vehicle.used'] },
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    const valid = usage();
    const noRevision = usage({}, { revision: undefined });
    const badUuid = usage({}, { vehicleId: 'car-1' });
    const wrongType = usage({ type: 'vehicle.released' });
    const marker = usage();
    for (const e of [valid, noRevision, badUuid, wrongType, marker]) await publish('entries.vehicle.used', e);

    await eventually(async () => handled.includes(marker.id), 10_000, 20);
    expect(handled).toEqual([valid.id, marker.id]);
    const got = await parked(queue);
    expect(got.map((p) => p.id)).toEqual([noRevision.id, badUuid.id, wrongType.id]);
    expect(got.every((p) => p.headers['x-parked-reason'] === 'invalid')).toBe(true);
    expect(String(got[0]!.headers['x-last-error'])).toMatch(/revision/);
    expect(String(got[1]!.headers['x-last-error'])).toMatch(/vehicleId.*uuid/);
    expect(await invalidCount(queue, 'entries.vehicle.used')).toBe(3);
  });

  it('parks a webhook event whose data carries a field the public DTO does not have, or a routing key without a schema', async () => {
    const queue = 'kit.validation.employees';
    const handled: string[] = [];
    await startConsumer<DomainEvent>({
      client,
      logger,
      metrics,
      prefetch: 1,
      queue: { name: queue, bindings: ['employees.#'] },
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    const valid = employeeEvent('tenant-1');
    const withEmail = employeeEvent('tenant-1');
    (withEmail.data as Record<string, unknown>).email = 'eva.novak@example.com';
    const unknownKey = { ...employeeEvent('tenant-1'), type: 'employee.promoted' };
    const marker = employeeEvent('tenant-1');
    await publish('employees.employee.created', valid);
    await publish('employees.employee.created', withEmail);
    await publish('employees.employee.promoted', unknownKey);
    await publish('employees.employee.created', marker);

    await eventually(async () => handled.includes(marker.id), 10_000, 20);
    expect(handled).toEqual([valid.id, marker.id]);
    const got = await parked(queue);
    expect(got.map((p) => [p.id, p.headers['x-parked-reason']])).toEqual([
      [withEmail.id, 'invalid'],
      [unknownKey.id, 'invalid'],
    ]);
    expect(String(got[0]!.headers['x-last-error'])).toMatch(/must NOT have unevaluated properties/);
    expect(String(got[1]!.headers['x-last-error'])).toMatch(/no schema for routing key employees.employee.promoted/);
    expect(await invalidCount(queue, 'employees.employee.created')).toBe(1);
    expect(await invalidCount(queue, 'employees.employee.promoted')).toBe(1);
  });
});
