import { randomUUID } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';
import { wholeKey } from '../whole-key';
import { isDuplicateKey } from './connection';

/** Who sent a key: keys are per tenant and per API key (docs/decisions/0195). */
export interface IdempotencyScope {
  tenantId: string;
  apiKeyId: string;
  key: string;
}

/** The first answer, as a replay sends it again; `withheld` when its body is not kept (0195). */
export interface StoredAnswer {
  status: number;
  /** The headers a replay repeats (content-type, location, etag…), by lower-case name: an object, since
   * FerretDB stores no nested arrays. */
  headers: Record<string, string>;
  body: Buffer;
  /** The body was not kept (too large): only the record's id, if any. */
  withheld?: { id?: string };
  /** The body is sealed (it shows a secret once, 0195); the record's id, if any, for when it cannot be opened. */
  sealed?: { id?: string };
}

interface IdempotencyRow {
  /** wholeKey(tenantId, apiKeyId, key): the unique index that makes a claim atomic across replicas. */
  _id: string;
  tenantId: string;
  apiKeyId: string;
  fingerprint: string;
  state: 'running' | 'done';
  /** The running claim's holder: only it may complete or release the claim. */
  token?: string | null;
  /** A running claim not completed by then (its process died) may be taken over by a retry. */
  leaseUntil?: Date | null;
  createdAt: Date;
  /** 24 h after the first request: from then on the key is new again. */
  expiresAt: Date;
  answer?: StoredAnswer | null;
}

/** What a request with a key may do. */
export type IdempotencyClaim =
  | { kind: 'claimed'; token: string }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'mismatch' }
  | { kind: 'running'; leaseUntil: Date };

/** How long a key is remembered after its first request (Stripe's 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/** A claim's lease: four times the gateway's 30 s answer time-out, so a live request is never taken over. */
export const IDEMPOTENCY_LEASE_MS = 2 * 60_000;

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys';

/**
 * The keys of the API's POSTs and their first answers, in the owning service's database (docs/decisions/
 * 0195). A request claims its key with an insert on `_id` (the whole tenant, API key and key), so two
 * replicas can never both run it; the answer is stored under the claim before it is sent; a 5xx releases
 * the claim, so a retry does the work. Expired rows count as absent whatever the purge did (FerretDB has no
 * TTL index, so `purgeExpired` runs on a schedule, as the inbox's retention does).
 */
export class IdempotencyStore {
  private readonly model: Model<IdempotencyRow>;

  constructor(
    conn: Connection,
    private readonly leaseMs = IDEMPOTENCY_LEASE_MS,
    private readonly ttlMs = IDEMPOTENCY_KEY_TTL_MS,
  ) {
    this.model =
      (conn.models.IdempotencyKey as Model<IdempotencyRow>) ??
      conn.model<IdempotencyRow>(
        'IdempotencyKey',
        new Schema<IdempotencyRow>(
          {
            _id: String,
            tenantId: String,
            apiKeyId: String,
            fingerprint: String,
            state: String,
            token: String,
            leaseUntil: Date,
            createdAt: Date,
            expiresAt: { type: Date, index: true },
            answer: Schema.Types.Mixed,
          },
          { collection: IDEMPOTENCY_COLLECTION, versionKey: false },
        ),
      );
  }

  private idOf(scope: IdempotencyScope): string {
    return wholeKey(scope.tenantId, scope.apiKeyId, scope.key);
  }

  /** Claims the key for this request, or says why not: the stored answer, another request, or running. */
  async claim(scope: IdempotencyScope, fingerprint: string, now = new Date()): Promise<IdempotencyClaim> {
    const _id = this.idOf(scope);
    const token = randomUUID();
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    const fresh = {
      tenantId: scope.tenantId,
      apiKeyId: scope.apiKeyId,
      fingerprint,
      state: 'running' as const,
      token,
      leaseUntil,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.ttlMs),
      answer: null,
    };
    // Twice at most: a row released or expired between our insert and our read is claimed on the second try.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.model.collection.insertOne({ _id, ...fresh } as never);
        return { kind: 'claimed', token };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const row = await this.model.findById(_id).lean<IdempotencyRow>();
      if (!row) continue;
      if (row.expiresAt <= now) {
        // Expired but not purged yet: a new first request, replacing the old row once.
        const taken = await this.model.updateOne({ _id, expiresAt: row.expiresAt }, { $set: fresh });
        if (taken.modifiedCount === 1) return { kind: 'claimed', token };
        continue;
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done' && row.answer) return { kind: 'replay', answer: answerOf(row.answer) };
      if (row.leaseUntil && row.leaseUntil > now) return { kind: 'running', leaseUntil: row.leaseUntil };
      // The holder's lease ran out (its process died mid-request): take the claim over, once.
      const taken = await this.model.updateOne(
        { _id, state: 'running', token: row.token },
        { $set: { token, leaseUntil } },
      );
      return taken.modifiedCount === 1 ? { kind: 'claimed', token } : { kind: 'running', leaseUntil };
    }
    return { kind: 'running', leaseUntil };
  }

  /** The request finished with `answer`: later requests with the key get it again. */
  async complete(scope: IdempotencyScope, token: string, answer: StoredAnswer): Promise<boolean> {
    const { modifiedCount } = await this.model.updateOne(
      { _id: this.idOf(scope), state: 'running', token },
      { $set: { state: 'done', answer, token: null, leaseUntil: null } },
    );
    return modifiedCount === 1;
  }

  /** The request failed in a way a retry may fix (a 5xx): the key is free again. */
  async release(scope: IdempotencyScope, token: string): Promise<void> {
    await this.model.deleteOne({ _id: this.idOf(scope), state: 'running', token });
  }

  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.model.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
  }
}

/** What the HTTP layer needs of the store (a fake in unit tests). */
export type IdempotencyKeys = Pick<IdempotencyStore, 'claim' | 'complete' | 'release'>;

/** A stored answer as the driver gives it back (the body as BSON Binary). */
function answerOf(stored: NonNullable<IdempotencyRow['answer']>): StoredAnswer {
  const raw = stored.body as unknown as Buffer | { buffer: Uint8Array } | undefined;
  const body = !raw ? Buffer.alloc(0) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer);
  return {
    status: stored.status,
    headers: stored.headers,
    body,
    ...(stored.withheld ? { withheld: stored.withheld } : {}),
    ...(stored.sealed ? { sealed: stored.sealed } : {}),
  };
}
