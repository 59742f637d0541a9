import { crossTenant, type Logger } from '@travel/platform';
import { RETIRED_DELIVERY_KEYS, type DeliveryDoc, type DispatcherModels } from './models';

const BATCH = 500;

/**
 * Delivery rows written before envelopes were stored once per event carry their own `payload`: move
 * each event's bytes to the envelope collection (one per event, its retention counted from the newest
 * row) and drop the copies from the rows. Idempotent, batch by batch, so an interrupted run resumes;
 * until it has run, readers and the attempt runner still use a row's own copy.
 */
export async function moveDeliveryPayloads(models: DispatcherModels, logger?: Logger): Promise<number> {
  const { Delivery, Envelope } = models;
  const migration = crossTenant('migration: delivery payloads of every company move to envelopes');
  let moved = 0;
  for (;;) {
    const rows = await Delivery.find(
      { payload: { $exists: true } },
      { _id: 1, tenantId: 1, eventId: 1, eventType: 1, occurredAt: 1, payload: 1, createdAt: 1 },
      migration,
    )
      .limit(BATCH)
      .lean<DeliveryDoc[]>();
    if (rows.length === 0) break;
    const byEvent = new Map<string, DeliveryDoc & { newest: Date }>();
    for (const row of rows) {
      const seen = byEvent.get(row.eventId);
      if (!seen) byEvent.set(row.eventId, { ...row, newest: row.createdAt });
      else if (row.createdAt > seen.newest) seen.newest = row.createdAt;
    }
    for (const e of byEvent.values()) {
      await Envelope.updateOne(
        { _id: e.eventId, tenantId: e.tenantId },
        {
          $setOnInsert: {
            eventType: e.eventType,
            occurredAt: e.occurredAt,
            payload: e.payload,
            createdAt: e.createdAt,
          },
          $max: { lastUsedAt: e.newest },
        },
        { upsert: true },
      );
    }
    await Delivery.updateMany({ _id: { $in: rows.map((r) => r._id) } }, { $unset: { payload: 1 } }, migration);
    moved += rows.length;
  }
  if (moved) logger?.info({ rows: moved }, 'delivery payloads moved to envelopes');
  return moved;
}

const sameKey = (a: Record<string, unknown>, b: Record<string, unknown>): boolean =>
  JSON.stringify(Object.entries(a)) === JSON.stringify(Object.entries(b));

/** Another replica dropped it first, or there is nothing to drop from. */
const alreadyGone = (err: unknown): boolean => [26, 27].includes((err as { code?: number })?.code ?? 0);

/**
 * Drops the delivery indexes that decision 0239 retired, from a store made before it. The declared
 * indexes are built first, the new unique key among them, so the uniqueness of (event, subscription)
 * never lapses, whichever replica gets here first. Replicas starting together may all run it: building
 * an existing index is a no-op, and an index another replica dropped meanwhile is skipped. How many were
 * dropped here.
 */
export async function retireDeliveryIndexes(models: DispatcherModels, logger?: Logger): Promise<number> {
  const { Delivery } = models;
  await Delivery.createIndexes();
  const retired = (await Delivery.collection.indexes()).filter(
    (index) => index.name && RETIRED_DELIVERY_KEYS.some((key) => sameKey(index.key, key)),
  );
  let dropped = 0;
  for (const index of retired) {
    try {
      await Delivery.collection.dropIndex(index.name!);
      dropped += 1;
    } catch (err) {
      if (!alreadyGone(err)) throw err;
    }
  }
  if (dropped) logger?.info({ indexes: retired.map((i) => i.name) }, 'retired delivery indexes dropped');
  return dropped;
}
