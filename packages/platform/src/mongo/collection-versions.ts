import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';

// A per-tenant version of a collection, for conditional reads (ETags) without reading the data
// (docs/decisions/0155). MongoDB (and FerretDB) offer no transaction here, so the version cannot change in
// the same write as the data of another document. Instead every write of a versioned collection is
// bracketed: `begin` bumps the version and registers the write as pending, the data write follows, `end`
// bumps the version again and removes the pending mark. A reader reads the version BEFORE the data; an ETag
// is given only when no write was pending. Then a later read of the same settled version proves that no
// write landed since the data was read: a write landing after the data read began after the version read
// (else it was pending then), so its `begin` raised the version.

export const COLLECTION_VERSIONS = 'collection_versions';

/** How long a pending mark holds at most: a writer that died between `begin` and `end` stops blocking then. */
export const PENDING_WRITE_MS = 60_000;

export interface CollectionState {
  /** Changes on every store reset (a fresh counter document), so a version number is never reused. */
  epoch: string;
  version: number;
  /** No write in flight: an ETag of this version is a promise about the data. */
  settled: boolean;
  /** Writes in flight (begun, not ended). */
  pending: number;
}

/**
 * The last settled version while only writes that are still in flight began since: each `begin` adds one
 * to the version and one pending write, each `end` (or dropped mark) adds one and takes one away, so
 * `version - pending` stays at the settled version until the first write since ends (0155). None of those
 * writes has been acknowledged yet, so an answer of that version is still a valid answer.
 */
export const baseVersion = (state: CollectionState): number => state.version - state.pending;

interface VersionDoc {
  _id: string;
  tenantId: string;
  epoch: string;
  v: number;
  pending?: Record<string, Date>;
}

/**
 * Whether a failed write certainly did not land: the server refused it, or mongoose did before sending it.
 * A time-out or a lost connection may still land.
 */
const certainlyNotWritten = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  ['MongoServerError', 'ValidationError', 'CastError'].includes((err as { name?: string }).name ?? '');

export class CollectionVersions {
  constructor(private readonly conn: Connection) {}

  private get docs() {
    return this.conn.collection<VersionDoc>(COLLECTION_VERSIONS);
  }

  private static key(tenantId: string, collection: string): string {
    return `${tenantId}/${collection}`;
  }

  /** Version reads in flight and the one queued after each, by counter document (0179). */
  private readonly flights = new Map<
    string,
    { current: Promise<CollectionState> | null; next: Promise<CollectionState> | null }
  >();

  /**
   * The counter's state, from a point read that began after this call (docs/decisions/0179): concurrent
   * callers share reads. A read already in flight may have begun before a write this caller saw end, so
   * a caller arriving during it waits for the next read, which starts when that one ends and serves every
   * caller that arrived meanwhile. Under load a read serves many requests; none is answered from a read
   * older than the request.
   */
  state(tenantId: string, collection: string): Promise<CollectionState> {
    const key = CollectionVersions.key(tenantId, collection);
    let flight = this.flights.get(key);
    if (!flight) this.flights.set(key, (flight = { current: null, next: null }));
    const inFlight = flight.current;
    if (!inFlight) return this.startRead(tenantId, key, flight);
    const f = flight;
    f.next ??= inFlight
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        f.next = null;
        return this.startRead(tenantId, key, f);
      });
    return f.next;
  }

  private startRead(
    tenantId: string,
    key: string,
    flight: { current: Promise<CollectionState> | null; next: Promise<CollectionState> | null },
  ): Promise<CollectionState> {
    const read: Promise<CollectionState> = this.readState(tenantId, key).finally(() => {
      if (flight.current === read) flight.current = null;
      if (!flight.current && !flight.next && this.flights.get(key) === flight) this.flights.delete(key);
    });
    flight.current = read;
    return read;
  }

  /** One point read of the counter document. */
  private async readState(tenantId: string, _id: string): Promise<CollectionState> {
    const doc = await this.docs.findOne({ _id, tenantId });
    if (!doc) return { epoch: 'none', version: 0, settled: true, pending: 0 };
    const pending = Object.entries(doc.pending ?? {});
    const expired = pending.filter(([, until]) => new Date(until).getTime() < Date.now()).map(([id]) => id);
    if (expired.length) void this.dropExpired(_id, tenantId, expired).catch(() => undefined);
    return { epoch: doc.epoch, version: doc.v, settled: pending.length === 0, pending: pending.length };
  }

  /** The bracket writers may still join, by counter document (until the first of its writes is over). */
  private readonly opening = new Map<string, SharedBracket>();

  /**
   * Runs `write` bracketed by the two bumps. A write the server refused (a duplicate key, a validation error)
   * ends at once; one whose outcome is unknown (a timeout, a lost connection) keeps its pending mark until
   * it expires, so no ETag is given while it might still land.
   *
   * Concurrent writers of one process share a bracket (docs/decisions/0234): those that arrive before the
   * first of its writes is over join it, write once its `begin` is acknowledged, and are answered after its
   * one `end`, which follows the last of them (so no writer waits for more than the writes under way when it
   * came). A bracket holding several writes proves what one holding a single write does
   * (every write lands between a `begin` and an `end`, none is acknowledged before its `end`), at two
   * counter commands per bracket instead of two per write.
   */
  async around<T>(tenantId: string, collection: string, write: () => Promise<T>): Promise<T> {
    const bracket = this.join(tenantId, collection);
    await bracket.begun;
    let result: T;
    try {
      result = await write();
    } catch (err) {
      if (certainlyNotWritten(err)) await bracket.done();
      else bracket.unsure();
      throw err;
    }
    await bracket.done();
    return result;
  }

  private join(tenantId: string, collection: string): SharedBracket {
    const _id = CollectionVersions.key(tenantId, collection);
    const open = this.opening.get(_id);
    if (open) return open.join();
    const writeId = randomUUID();
    const close = () => {
      if (this.opening.get(_id) === bracket) this.opening.delete(_id);
    };
    const bracket = new SharedBracket(
      () =>
        this.docs
          .updateOne(
            { _id, tenantId },
            {
              $inc: { v: 1 },
              $set: { [`pending.${writeId}`]: new Date(Date.now() + PENDING_WRITE_MS) },
              $setOnInsert: { epoch: randomUUID().slice(0, 8) },
            },
            { upsert: true },
          )
          .catch((err: unknown) => {
            close();
            throw err;
          }),
      // An `end` that fails leaves the mark to expire (PENDING_WRITE_MS): the writes' own outcomes stand.
      () =>
        this.docs.updateOne({ _id, tenantId }, { $inc: { v: 1 }, $unset: { [`pending.${writeId}`]: '' } }).then(
          () => undefined,
          () => undefined,
        ),
      close,
    );
    this.opening.set(_id, bracket);
    return bracket.join();
  }

  /** Marks of writers that died: removed with a bump, so no ETag given before survives them. */
  private async dropExpired(_id: string, tenantId: string, ids: string[]): Promise<void> {
    const now = new Date();
    for (const id of ids)
      await this.docs.updateOne(
        { _id, tenantId, [`pending.${id}`]: { $lt: now } },
        { $inc: { v: 1 }, $unset: { [`pending.${id}`]: '' } },
      );
  }
}

/**
 * One pending mark shared by the writes that joined it before the first of them was over (0234). Its `end`
 * is sent once every member's write is over, unless one of them may still land (unknown outcome): then the
 * mark is left to expire, as a single write's would be.
 */
class SharedBracket {
  private members = 0;
  private finished = 0;
  private uncertain = false;
  private resolveConcluded!: () => void;
  private readonly concluded = new Promise<void>((resolve) => (this.resolveConcluded = resolve));
  readonly begun: Promise<unknown>;

  constructor(
    begin: () => Promise<unknown>,
    private readonly end: () => Promise<void>,
    /** No writer joins any more: called when the first member's write is over. */
    private readonly close: () => void,
  ) {
    this.begun = begin();
  }

  join(): this {
    this.members += 1;
    return this;
  }

  /** This member's write is over (landed, or certainly not): answered once the bracket has ended. */
  done(): Promise<void> {
    this.leave();
    return this.concluded;
  }

  /** This member's write may still land: the mark must not end. */
  unsure(): void {
    this.uncertain = true;
    this.leave();
  }

  private leave(): void {
    this.close();
    this.finished += 1;
    if (this.finished < this.members) return;
    if (this.uncertain) this.resolveConcluded();
    else void this.end().then(this.resolveConcluded);
  }
}
