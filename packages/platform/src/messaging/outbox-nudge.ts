import type { Connection } from 'mongoose';

// A write that put events into a document's outbox asks the service's relay to publish now instead of at
// its next poll. The relay is found by the connection the write went through (each service has its own,
// even when several share a process in tests), so no use case is handed a nudge function
// (docs/decisions/0170). Without a relay (a migrate-only run, a test of a store) a nudge does nothing:
// the events wait in the outbox for the next relay pass.
const relays = new WeakMap<Connection, () => void>();

/** Called by startService for its relay; answers the function that forgets it again. */
export function relayOutboxWrites(conn: Connection, nudge: () => void): () => void {
  relays.set(conn, nudge);
  return () => {
    if (relays.get(conn) === nudge) relays.delete(conn);
  };
}

/** After a write through `conn` put events into an outbox. */
export function nudgeRelayOf(conn: Connection): void {
  relays.get(conn)?.();
}
