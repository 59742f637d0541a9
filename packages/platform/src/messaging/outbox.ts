import type { mongo } from 'mongoose';

type Collection<T extends mongo.Document> = mongo.Collection<T>;
type Document = mongo.Document;
import type { OutboxEvent } from './events';

// The single-document outbox. Events live in the aggregate's own document, in a map keyed by event id,
// written by the same atomic update as the state change (no multi-document transaction needed).
// Removal is an unconditional `$unset` of one key, guarded by `$exists`: it behaves identically on
// MongoDB and FerretDB, unlike `$pull` with a condition, which FerretDB silently ignores.
export interface OutboxFields {
  outbox?: Record<string, OutboxEvent>;
  outboxCount?: number;
}

/** Fields to add to a new document so its creation carries its events. */
export function withOutbox(...events: OutboxEvent[]): Required<OutboxFields> {
  const outbox = Object.fromEntries(events.map((e) => [e.id, e]));
  return { outbox, outboxCount: Object.keys(outbox).length };
}

type Update = { $set?: Record<string, unknown>; $inc?: Record<string, number>; [op: string]: unknown };

/** Adds events to an update document, keeping the state change and the events one atomic write. */
export function outboxUpdate(update: Update, ...events: OutboxEvent[]): Update {
  const $set = { ...(update.$set ?? {}) };
  const ids = new Set(events.map((e) => e.id));
  for (const e of events) $set[`outbox.${e.id}`] = e;
  const $inc = { ...(update.$inc ?? {}) };
  $inc.outboxCount = ($inc.outboxCount ?? 0) + ids.size;
  return { ...update, $set, $inc };
}

/** Schema definition fragment for mongoose models that carry an outbox. */
export const outboxSchemaFields = {
  outbox: { type: Object, default: undefined },
  outboxCount: { type: Number, default: 0, index: true },
};

export async function pendingDocuments(collection: Collection<Document>, limit: number) {
  return collection
    .find({ outboxCount: { $gt: 0 } }, { projection: { outbox: 1 } })
    .limit(limit)
    .toArray();
}

/** An event the broker confirmed, to be removed from the outbox of the document it is in. */
export interface PublishedEvent {
  docId: unknown;
  eventId: string;
}

/**
 * The most removals sent in one command. On MongoDB a bulk of `updateOne`s is one `update` command with a
 * statement each, one round trip instead of one per event; the bound keeps a command (and, on the
 * serializing FerretDB front, the collection's write lock) short enough not to hold up the API's writes.
 */
export const REMOVALS_PER_COMMAND = 100;

/**
 * Removes published events in one command: per event, its key unset and the counter down by one, only
 * while the key is there, so a removal another relay made first is a no-op (no counter change) and an
 * event written since stays. Answers how many were removed here.
 */
export async function removeFromOutbox(collection: Collection<Document>, events: PublishedEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const result = await collection.bulkWrite(
    events.map(({ docId, eventId }) => {
      const key = `outbox.${eventId}`;
      return {
        updateOne: {
          filter: { _id: docId, [key]: { $exists: true } } as Document,
          update: { $unset: { [key]: '' }, $inc: { outboxCount: -1 } },
        },
      };
    }),
    // Each statement stands alone: one that fails does not keep the others from applying.
    { ordered: false },
  );
  return result.modifiedCount;
}
