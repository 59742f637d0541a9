import type { Connection } from 'mongoose';

// A write that put events into a document's outbox asks the service's relay to publish now instead of at
// its next poll, naming the document: a relay publishes the documents its own replica wrote at once and
// another replica's only once their events are older than the adoption delay (decision 0243). The relay is
// found by the connection the write went through (each service has its own, even when several share a
// process in tests), so no use case is handed a nudge function (docs/decisions/0170). Without a relay (a
// migrate-only run, a test of a store) a nudge does nothing: the events wait in the outbox for the next
// relay pass.
const relays = new WeakMap<Connection, (written: WrittenDocument) => void>();

/** A document a write just put events into: its collection's name and its `_id`. */
export interface WrittenDocument {
  collection: string;
  id: unknown;
}

/** Called by startService for its relay; answers the function that forgets it again. */
export function relayOutboxWrites(conn: Connection, nudge: (written: WrittenDocument) => void): () => void {
  relays.set(conn, nudge);
  return () => {
    if (relays.get(conn) === nudge) relays.delete(conn);
  };
}

/** After a write through `conn` put events into the outbox of `written`. */
export function nudgeRelayOf(conn: Connection, written: WrittenDocument): void {
  relays.get(conn)?.(written);
}
