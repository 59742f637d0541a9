// Entry numbers of authorized trips (docs/decisions/0067) against the real store: a process that dies
// between any two steps leaves neither a gap nor a double number, and two processes issuing at once stay
// gap-free.
import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo, crossTenant, parseTenantId } from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';
import { EntryNumberIssuer } from '../src/app/entry-numbers';
import { EntryCounters } from '../src/infra/entry-numbers';
import { registerModels, type EntriesModels } from '../src/infra/models';
import { entriesRepositories, type EntriesRepositories } from '../src/infra/repositories';

const YEAR = 2026;
const number = (seq: number) => `${YEAR}-${String(seq).padStart(5, '0')}`;

describe('entry numbers of authorized trips', () => {
  let env: TestEnv;
  let conn: Connection;
  let models: EntriesModels;
  let repos: EntriesRepositories;
  beforeAll(async () => {
    env = await createTestEnv('entry-numbers');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}entries`);
    models = registerModels(conn);
    repos = entriesRepositories(conn);
  });
  afterAll(async () => {
    await conn?.close();
    await env?.cleanup();
  });

  /** An authorized trip whose number is not stored yet (the state right after the authorization write). */
  async function claimed(tenantId: string): Promise<string> {
    const _id = randomUUID();
    const now = new Date();
    await models.Entry.collection.insertOne({
      _id,
      tenantId,
      employeeId: randomUUID(),
      entryNumber: '',
      isRequest: false,
      status: 0,
      phase: 0,
      isPaidOut: false,
      paidOutAt: null,
      departureDate: '2026-11-02',
      returnDate: '2026-11-03',
      advancePayment: '0',
      currencyCode: 'CZK',
      advancePaymentInBaseCurrency: '0',
      createdAt: now,
      editedAt: now,
      deletedAt: null,
      numberClaim: { year: YEAR, at: now },
      rev: 1,
      outboxCount: 0,
    } as never);
    return _id;
  }

  // A store probe of the test, across tenants on purpose (docs/decisions/0081).
  const stored = async (id: string) =>
    (await models.Entry.findOne({ _id: id }, null, crossTenant('test probe')).lean())!;
  const issuer = () => new EntryNumberIssuer(repos, new EntryCounters(models));

  it('a number taken by a process that died before storing it goes to its entry, not to the next one', async () => {
    const tenant = parseTenantId(randomUUID());
    const [a, b] = [await claimed(tenant), await claimed(tenant)];
    // The process authorizing A took number 1 and died.
    expect(
      await new EntryCounters(models).take(tenant, YEAR, (await new EntryCounters(models).read(tenant, YEAR)).seq, a),
    ).toBe(1);
    expect((await stored(a)).entryNumber).toBe('');

    const issued = await issuer().issue(tenant, b);
    expect(issued.entryNumber).toBe(number(2));
    const first = await stored(a);
    expect(first.entryNumber).toBe(number(1));
    expect(first.numberClaim).toBeNull();
    // Each completion raised its entry.updated, with the number in it.
    for (const doc of [first, await stored(b)]) {
      const events = Object.values(doc.outbox ?? {}) as unknown as { type: string; data: { entryNumber: string } }[];
      // (Public events only: the internal entries.entry-state.changed for payouts rides along, 0074.)
      const published = events.filter((e) => e.type.startsWith('entry.'));
      expect(published.map((e) => [e.type, e.data.entryNumber])).toEqual([['entry.updated', doc.entryNumber]]);
    }
    // Issuing again is a no-op.
    expect((await issuer().issue(tenant, a)).entryNumber).toBe(number(1));
    expect((await new EntryCounters(models).read(tenant, YEAR)).seq).toBe(2);
  });

  it('a claim left before the counter moved is completed at start-up (recover), with the next number', async () => {
    const tenant = parseTenantId(randomUUID());
    const c = await claimed(tenant);
    await issuer().recover();
    expect((await stored(c)).entryNumber).toBe(number(1));
  });

  it('two processes issuing 40 numbers at once, the same entry sometimes twice: 1..40, no gap, no duplicate', async () => {
    const tenant = parseTenantId(randomUUID());
    const ids = await Promise.all(Array.from({ length: 40 }, () => claimed(tenant)));
    const [p1, p2] = [issuer(), issuer()];
    await Promise.all(
      ids.flatMap((id, i) =>
        i % 4 === 0 ? [p1.issue(tenant, id), p2.issue(tenant, id)] : [(i % 2 ? p1 : p2).issue(tenant, id)],
      ),
    );
    const numbers = (await Promise.all(ids.map(stored))).map((d) => d.entryNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => number(i + 1)));
    expect((await new EntryCounters(models).read(tenant, YEAR)).seq).toBe(40);
  });
});
