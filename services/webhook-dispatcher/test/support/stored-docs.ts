import { randomUUID } from 'node:crypto';
import type { MonitoredConnection } from '@travel/testkit';
import type { DeliveryDoc, SubscriptionDoc } from '../../src/infra/models';

// Documents as the dispatcher stores them, for tests that write the store themselves (old stores, retention,
// other replicas), and two replicas' connections to one test database.

/** A delivery row of a succeeded first attempt; `fields` override. */
export const storedDelivery = (fields: Pick<DeliveryDoc, 'tenantId'> & Partial<DeliveryDoc>): DeliveryDoc => ({
  _id: randomUUID(),
  subscriptionId: randomUUID(),
  eventId: randomUUID(),
  eventType: 'employee.created',
  occurredAt: new Date(),
  status: 'Succeeded',
  series: 1,
  attemptsMade: 1,
  totalAttempts: 1,
  attemptLog: [],
  lastStatusCode: 200,
  responseBody: null,
  nextAttemptAt: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...fields,
});

/** An active subscription to `employee.created` with a sealed secret, without the fields added since 0038. */
export const storedSubscription = (fields: Partial<SubscriptionDoc> = {}) => ({
  _id: randomUUID(),
  url: 'https://partner.example/hook',
  eventTypes: ['employee.created'],
  secret: 'sealed',
  isActive: true,
  disabledAt: null,
  disabledReason: null,
  consecutiveExhausted: 0,
  createdAt: new Date(),
  ...fields,
});

/**
 * Two replicas on a fresh database of the test store, for the `describe` block that calls this: made
 * before its tests, the database dropped after them. Read `a` and `b` inside the tests.
 */
export function twoReplicas<R extends MonitoredConnection>(name: string, make: (db: string) => Promise<R>) {
  const db = `t_${name}_${randomUUID().slice(0, 8)}`;
  const replicas = {} as { a: R; b: R };
  beforeAll(async () => {
    replicas.a = await make(db);
    replicas.b = await make(db);
  });
  afterAll(async () => {
    await replicas.a?.conn.dropDatabase().catch(() => undefined);
    await Promise.all([replicas.a?.conn.close(), replicas.b?.conn.close()]);
  });
  return replicas;
}
