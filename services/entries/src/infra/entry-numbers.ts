import { isDuplicateKey } from '@travel/platform';
import type { EntriesModels } from './models';

/** The counter document of a tenant and year as the issuing protocol reads it. */
export interface CounterState {
  seq: number;
  /** The last number taken by an authorization, and for which entry (completed or not yet). */
  last: { entryId: string; seq: number } | null;
}

/**
 * The per-tenant, per-year entry-number counter (`entry_counters`, shared with the number an order gets at
 * create, docs/decisions/0046), read and advanced by compare-and-set so that the entry that took a number
 * is recorded in the same atomic write as the increment (docs/decisions/0067).
 */
export class EntryCounters {
  constructor(private readonly models: Pick<EntriesModels, 'EntryCounter'>) {}

  private get collection() {
    return this.models.EntryCounter.collection;
  }

  private id(tenantId: string, year: number): string {
    return `${tenantId}:${year}`;
  }

  /** The counter as it is now (created at 0 on first use). */
  async read(tenantId: string, year: number): Promise<CounterState> {
    const _id = this.id(tenantId, year);
    let doc = await this.collection.findOne({ _id, tenantId } as never);
    if (!doc) {
      try {
        await this.collection.insertOne({ _id, tenantId, year, seq: 0, last: null } as never);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      doc = await this.collection.findOne({ _id, tenantId } as never);
    }
    const d = doc as unknown as { seq: number; last?: CounterState['last'] };
    return { seq: d.seq, last: d.last ?? null };
  }

  /**
   * Takes number `seen + 1` for `entryId` if nobody advanced the counter since it was read as `seen`: the
   * increment and the record of who took it are one write. Null when another issue came first.
   */
  async take(tenantId: string, year: number, seen: number, entryId: string): Promise<number | null> {
    const seq = seen + 1;
    const result = await this.collection.updateOne({ _id: this.id(tenantId, year), tenantId, seq: seen } as never, {
      $inc: { seq: 1 },
      $set: { last: { entryId, seq } },
    });
    return result.modifiedCount === 1 ? seq : null;
  }
}
