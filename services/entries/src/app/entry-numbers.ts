import { conflict, parseTenantId, withRevisionRetry, type Logger, type TenantId } from '@travel/platform';
import { EntryWrites } from './entry-writes';
import { formatEntryNumber } from '../domain/entry';
import type { EntriesRepositories, EntryCounters, EntryDoc } from '../infra/repositories';

const ROUNDS = 500;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issues the entry number of an authorized trip (docs/decisions/0067): once, and without gaps, even when
 * the process dies half-way.
 *
 * 1. The authorization itself (one write on the entry, before this runs) sets `numberClaim`; the entry is
 *    locked and raises nothing yet.
 * 2. The counter is advanced by compare-and-set, recording `last = { entryId, seq }` in the same write.
 * 3. The entry stores its number where it has none yet, clears the claim and raises `entry.updated`.
 *
 * Before anyone takes the next number, the holder of `last` is completed (step 3 on its behalf), so a
 * number taken is always stored on its entry, and an entry re-reads itself after reading the counter, so it
 * never takes a second one. A crash between 1 and 3 is completed by the next issue in the tenant, by a
 * retried operation on the entry, or at start-up (`recover`).
 */
export class EntryNumberIssuer {
  /** One issue at a time per tenant in this process (the compare-and-set keeps several processes right). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries' | 'pendingNumberClaims'>,
    private readonly counters: EntryCounters,
    private readonly logger?: Logger,
  ) {
    this.writes = new EntryWrites(repos);
  }

  private readonly writes: EntryWrites;

  /** Issues the number of an entry holding a claim; answers the entry as stored afterwards. */
  issue(tenantId: TenantId, entryId: string): Promise<EntryDoc> {
    const before = this.queues.get(tenantId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.issueNow(tenantId, entryId));
    const tail = run.catch(() => undefined);
    this.queues.set(tenantId, tail);
    void tail.then(() => {
      if (this.queues.get(tenantId) === tail) this.queues.delete(tenantId);
    });
    return run;
  }

  private async read(tenantId: TenantId, entryId: string): Promise<EntryDoc> {
    const doc = await this.repos.entries.of(tenantId).get(entryId);
    if (!doc) throw new Error(`entry ${entryId} of tenant ${tenantId} is missing`);
    return doc;
  }

  private async issueNow(tenantId: TenantId, entryId: string): Promise<EntryDoc> {
    const entry = await this.read(tenantId, entryId);
    if (entry.entryNumber || !entry.numberClaim) return entry;
    const year = entry.numberClaim.year;
    for (let round = 0; round < ROUNDS; round++) {
      const counter = await this.counters.read(tenantId, year);
      if (counter.last?.entryId === entryId) return this.complete(tenantId, entryId, year, counter.last.seq);
      if (counter.last) await this.complete(tenantId, counter.last.entryId, year, counter.last.seq);
      // Read after the counter: a number given to this entry by a helper is visible now.
      const fresh = await this.read(tenantId, entryId);
      if (fresh.entryNumber || !fresh.numberClaim) return fresh;
      const seq = await this.counters.take(tenantId, year, counter.seq, entryId);
      if (seq !== null) return this.complete(tenantId, entryId, year, seq, fresh);
      // Another process (or an order's create) advanced the counter first: read it again.
      await pause(Math.random() * 10);
    }
    throw conflict('Entry numbers are being issued by many requests at once; try again.');
  }

  /** Step 3: stores the number on an entry still waiting for it (a no-op for one that has it). */
  private async complete(
    tenantId: TenantId,
    entryId: string,
    year: number,
    seq: number,
    known?: EntryDoc,
  ): Promise<EntryDoc> {
    let attempt = 0;
    return withRevisionRetry(
      'travel entry',
      async () => {
        // The entry as just read by the caller on the first attempt; a lost revision race reads it again.
        const entry = attempt++ === 0 && known ? known : await this.read(tenantId, entryId);
        if (entry.entryNumber || !entry.numberClaim) return entry;
        // The authorization's entry.updated, with the number, dated when the entry was authorized.
        const { entry: stored } = await this.writes.apply(tenantId, entry, {
          set: { entryNumber: formatEntryNumber(year, seq), numberClaim: null },
          announce: 'entry.updated',
          at: entry.editedAt,
          where: { entryNumber: '' },
        });
        return stored;
      },
      20,
    );
  }

  /** Completes every claim left by a process that stopped between authorization and number (start-up). */
  async recover(): Promise<number> {
    // Every tenant's pending claims, once at start-up (docs/decisions/0067, across tenants: 0081).
    const pending = await this.repos.pendingNumberClaims();
    for (const p of pending) {
      try {
        // The tenant named by the stored entry (a trusted seam, docs/decisions/0081).
        await this.issue(parseTenantId(p.tenantId), p._id);
      } catch (err) {
        this.logger?.warn({ err, entryId: p._id }, 'entry number of an authorized trip not issued yet');
      }
    }
    return pending.length;
  }
}
