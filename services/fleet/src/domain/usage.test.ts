import { abandonClaim, applyUsage, liveCount, type Usage } from './usage';

const now = new Date('2026-10-10T10:00:00Z');
const ids = { entryId: 'e1', expenseId: 'x1' };

describe('applyUsage', () => {
  it('used, then released: live, then not', () => {
    const used = applyUsage({}, { ...ids, revision: 1, live: true }, now)!;
    expect(liveCount(used)).toBe(1);
    const released = applyUsage(used, { ...ids, revision: 2, live: false }, now)!;
    expect(liveCount(released)).toBe(0);
  });

  it('a redelivered event changes nothing', () => {
    const used = applyUsage({}, { ...ids, revision: 1, live: true }, now)!;
    expect(applyUsage(used, { ...ids, revision: 1, live: true }, now)).toBeUndefined();
  });

  it('events out of order: a release that overtook its use wins over the late use', () => {
    const released = applyUsage({}, { ...ids, revision: 2, live: false }, now)!;
    expect(liveCount(released)).toBe(0);
    expect(applyUsage(released, { ...ids, revision: 1, live: true }, now)).toBeUndefined();
  });

  it('at the same revision a use is never undone (the safe side)', () => {
    const used: Usage = applyUsage({}, { ...ids, revision: 3, live: true }, now)!;
    expect(applyUsage(used, { ...ids, revision: 3, live: false }, now)).toBeUndefined();
    const released = applyUsage({}, { ...ids, revision: 3, live: false }, now)!;
    expect(liveCount(applyUsage(released, { ...ids, revision: 3, live: true }, now)!)).toBe(1);
  });

  it('counts each expense once', () => {
    let u: Usage = {};
    u = applyUsage(u, { entryId: 'e1', expenseId: 'a', revision: 1, live: true }, now)!;
    u = applyUsage(u, { entryId: 'e1', expenseId: 'b', revision: 1, live: true }, now)!;
    u = applyUsage(u, { entryId: 'e2', expenseId: 'a', revision: 1, live: true }, now)!;
    expect(liveCount(u)).toBe(3);
  });
});

describe('abandonClaim', () => {
  it('undoes only a live record of exactly that revision; a later use of it counts again', () => {
    const claimed = applyUsage({}, { ...ids, revision: 4, live: true }, now)!;
    expect(abandonClaim(claimed, { ...ids, revision: 3 }, now)).toBeUndefined();
    const abandoned = abandonClaim(claimed, { ...ids, revision: 4 }, now)!;
    expect(liveCount(abandoned)).toBe(0);
    expect(abandonClaim(abandoned, { ...ids, revision: 4 }, now)).toBeUndefined();
    expect(liveCount(applyUsage(abandoned, { ...ids, revision: 4, live: true }, now)!)).toBe(1);
    expect(abandonClaim({}, { ...ids, revision: 4 }, now)).toBeUndefined();
  });
});
