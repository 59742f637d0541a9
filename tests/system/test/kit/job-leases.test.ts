// A scheduled job's lease in the store (decision 0218): taken with one conditional write, renewed, given
// back, lost when it expires; two holders racing get one lease; a period done is not run again.
import type { Connection } from 'mongoose';
import { connectMongo, ensureIndexes, JobLeases, type HeldLease } from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);

describe('job leases', () => {
  let env: TestEnv;
  let conn: Connection;
  let leases: JobLeases;

  beforeAll(async () => {
    env = await createTestEnv('job-leases');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}kit`);
    leases = new JobLeases(conn);
    await ensureIndexes(conn);
  });
  afterAll(async () => {
    await conn?.close();
    await env?.cleanup();
  });

  it('takes, renews and gives back a lease; a completed period is done, a failed one is not', async () => {
    const period = at('2026-11-30T10:00:00Z');
    const now = at('2026-11-30T10:00:05Z');
    const lease = (await leases.take('purge', period, 60_000, now)) as HeldLease;
    expect(lease).toMatchObject({ job: 'purge', period });
    // Held until 10:01:05: another replica at 10:00:30 is refused.
    expect(await leases.take('purge', period, 60_000, at('2026-11-30T10:00:30Z'))).toBe('held');
    // Renewed at 10:00:50 until 10:01:50: at 10:01:30 it is still held.
    expect(await leases.renew(lease, 60_000, at('2026-11-30T10:00:50Z'))).toBe(true);
    expect(await leases.take('purge', period, 60_000, at('2026-11-30T10:01:30Z'))).toBe('held');
    // Given back after a failed run: the period is still open, so the next tick takes it at once.
    expect(await leases.giveBack(lease, false, at('2026-11-30T10:01:40Z'))).toBe(true);
    const again = (await leases.take('purge', period, 60_000, at('2026-11-30T10:01:41Z'))) as HeldLease;
    expect(again).toMatchObject({ job: 'purge' });
    expect(await leases.giveBack(again, true, at('2026-11-30T10:01:42Z'))).toBe(true);
    // Done for 10:00–11:00; the 11:00 period runs again.
    expect(await leases.take('purge', period, 60_000, at('2026-11-30T10:59:59Z'))).toBe('done');
    const next = await leases.take('purge', new Date(period.getTime() + HOUR), 60_000, at('2026-11-30T11:00:01Z'));
    expect(next).toMatchObject({ job: 'purge' });
  });

  it('a holder that dies loses its lease when it expires; its late renew and give-back change nothing', async () => {
    const period = at('2026-11-30T00:00:00Z');
    const dead = (await leases.take('import', period, 10_000, at('2026-11-30T00:00:01Z'))) as HeldLease;
    expect(await leases.take('import', period, 10_000, at('2026-11-30T00:00:10Z'))).toBe('held');
    // 00:00:11 is its expiry: another replica takes it.
    const taker = (await leases.take('import', period, 10_000, at('2026-11-30T00:00:11Z'))) as HeldLease;
    expect(taker.holder).not.toBe(dead.holder);
    expect(await leases.renew(dead, 10_000, at('2026-11-30T00:00:12Z'))).toBe(false);
    expect(await leases.giveBack(dead, true, at('2026-11-30T00:00:13Z'))).toBe(false);
    expect(await leases.take('import', period, 10_000, at('2026-11-30T00:00:14Z'))).toBe('held');
    expect(await leases.giveBack(taker, true, at('2026-11-30T00:00:15Z'))).toBe(true);
    expect(await leases.take('import', period, 10_000, at('2026-11-30T00:00:16Z'))).toBe('done');
  });

  it('of ten replicas racing for a new job and then for its next period, one gets the lease each time', async () => {
    const first = at('2026-11-30T00:00:00Z');
    const race = (period: Date, now: Date) =>
      Promise.all(Array.from({ length: 10 }, () => new JobLeases(conn).take('daily', period, 60_000, now)));
    const created = await race(first, at('2026-11-30T00:00:01Z'));
    expect(created.filter((t) => typeof t === 'object')).toHaveLength(1);
    expect(created.filter((t) => t === 'held')).toHaveLength(9);
    await leases.giveBack(created.find((t) => typeof t === 'object') as HeldLease, true);
    const nextDay = await race(at('2026-12-01T00:00:00Z'), at('2026-12-01T00:00:01Z'));
    expect(nextDay.filter((t) => typeof t === 'object')).toHaveLength(1);
    expect(nextDay.filter((t) => t === 'held')).toHaveLength(9);
  });
});
