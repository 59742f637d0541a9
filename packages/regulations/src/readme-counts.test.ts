// The README's table of foreign-rate coverage stays true: recomputed here from the lookups.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNTRY_CODES } from './countries';
import { foreignRate } from './lookup';
import { MARKET_COUNTRY } from './rows';
import { isMarket } from './types';

const countsIn = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => /^\| (\w\w) +\| (\d{4}-\d\d-\d\d) \| (\d+) +\| (\d+) +\| (\d+) +\|$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && isMarket(m[1]!));
const rows = countsIn(join(__dirname, '..', 'README.md'));
const root = countsIn(join(__dirname, '..', '..', '..', 'README.md'));

describe('README: countries priced, reported and unknown per market', () => {
  it("the repository's README shows the same table", () => {
    expect(root.map((m) => m.slice(1))).toEqual(rows.map((m) => m.slice(1)));
  });
  it('lists every market on 2026-06-01, and SI on 2025-06-01', () => {
    expect(rows.map((m) => `${m[1]} ${m[2]}`).sort()).toEqual(
      ['CZ', 'HR', 'PL', 'SI', 'SK']
        .map((m) => `${m} 2026-06-01`)
        .concat('SI 2025-06-01')
        .sort(),
    );
  });
  it.each(rows.map((m) => [m[1]!, m[2]!, m] as const))('%s on %s', (market, date, m) => {
    if (!isMarket(market)) throw new Error(market);
    const counts = { priced: 0, reported: 0, unknown: 0 };
    for (const c of COUNTRY_CODES) {
      if (c === MARKET_COUNTRY[market]) continue;
      const l = foreignRate(market, c, date);
      if (l.status === 'known') counts.priced++;
      else if (l.reported?.length) counts.reported++;
      else counts.unknown++;
    }
    expect(counts).toEqual({ priced: Number(m[3]), reported: Number(m[4]), unknown: Number(m[5]) });
  });
});
