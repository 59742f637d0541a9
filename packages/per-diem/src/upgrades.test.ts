// Domestic-unit upgrades (SPEC Endpoints rule 4; docs/decisions/0126), worked by hand per market from
// ../shared/research/REGULATIONS.md: time that the regulation moves from the foreign part of a trip to its
// domestic part adds up with the domestic time of the same unit, and the sum picks the domestic band.
// CZ is the one market whose research names such time: under 1 h abroad in a calendar day pays no foreign
// stravné and counts toward the domestic part (second pass, §170(4) per Dashöfer). Elsewhere every minute
// abroad is paid abroad (SK from 0 h, PL from 0 h) or the research is silent (HR, SI: time abroad below
// the first band pays nothing, and no rule moves it home), so nothing is upgraded; those examples say so.
// All dates in March 2026 (UTC+1 everywhere) except SI (2025: its foreign rates are verified through 2025).
import { calculatePerDiems, type Market } from './index';

const run = (market: Market, stops: [string, string][]) =>
  calculatePerDiems({ market, stops: stops.map(([time, countryCode]) => ({ time, countryCode })) });
const rows = (r: ReturnType<typeof run>) => r.items.map((i) => [i.kind, i.countryCode, i.hours, i.band, i.amount]);

describe('CZ: under 1 h abroad in a day adds up with the home time of that day', () => {
  it('same day: 11 h 40 min home + 50 min in Austria = 12.5 h → >12–18 h, 236 Kč (without the rule: 155 Kč)', () => {
    // 07:00 (06:00Z) depart; into AT 18:20 (17:20Z); back 19:10 (18:10Z); home 19:30 (18:30Z).
    const r = run('CZ', [
      ['2026-03-02T06:00:00Z', 'CZ'],
      ['2026-03-02T17:20:00Z', 'AT'],
      ['2026-03-02T18:10:00Z', 'CZ'],
      ['2026-03-02T18:30:00Z', 'CZ'],
    ]);
    expect(rows(r)).toEqual([['Domestic', 'CZ', 12.5, '>12-18h', '236.00']]);
  });

  it('after midnight: 30 min in Germany + 4 h 45 min home = 5.25 h → 5–12 h, 155 Kč (alone 4.75 h paid nothing)', () => {
    // 2 Mar 07:00 (06:00Z) depart; into DE 09:00 (08:00Z); back across 3 Mar 00:30 (2 Mar 23:30Z); home
    // 05:15 (04:15Z). 2 Mar: CZ 2 h → 0 Kč; DE 15 h → ⅔ × 50 € = 33.33 €. 3 Mar: DE 30 min joins home 4 h 45.
    const r = run('CZ', [
      ['2026-03-02T06:00:00Z', 'CZ'],
      ['2026-03-02T08:00:00Z', 'DE'],
      ['2026-03-02T23:30:00Z', 'CZ'],
      ['2026-03-03T04:15:00Z', 'CZ'],
    ]);
    expect(rows(r)).toEqual([
      ['Domestic', 'CZ', 2, null, '0.00'],
      ['Foreign', 'DE', 15, '>12-18h', '33.33'],
      ['Domestic', 'CZ', 5.25, '5-12h', '155.00'],
    ]);
    // The upgraded row starts at midnight Prague (it spans the half hour abroad).
    expect(r.items[2]).toMatchObject({ departureTime: '2026-03-02T23:00:00Z', arrivalTime: '2026-03-03T04:15:00Z' });
    expect(r.totals).toEqual([
      { currencyCode: 'CZK', amount: '155.00' },
      { currencyCode: 'EUR', amount: '33.33' },
    ]);
  });
});

describe('the other markets: no time falls back to the domestic part', () => {
  it('SK, the same trip: the 30 min abroad are paid abroad (≤ 6 h: 25 % × 45 = 11.25 €); 4.75 h home: 0.00 €', () => {
    const r = run('SK', [
      ['2026-03-02T06:00:00Z', 'SK'],
      ['2026-03-02T08:00:00Z', 'DE'],
      ['2026-03-02T23:30:00Z', 'SK'],
      ['2026-03-03T04:15:00Z', 'SK'],
    ]);
    expect(rows(r)).toEqual([
      ['Domestic', 'SK', 2, null, '0.00'],
      ['Foreign', 'DE', 15, '>12h', '45.00'],
      ['Foreign', 'DE', 0.5, '<=6h', '11.25'],
      ['Domestic', 'SK', 4.75, null, '0.00'],
    ]);
  });

  it("SK: a day's home pieces add up (the calendar day is the unit): 3 h + 2 h home = 5 h → 9.30 €", () => {
    // 06:00 (05:00Z) depart; into AT 09:00 (08:00Z); back 19:00 (18:00Z); home 21:00 (20:00Z). AT 10 h: 50 % × 45.
    const r = run('SK', [
      ['2026-03-02T05:00:00Z', 'SK'],
      ['2026-03-02T08:00:00Z', 'AT'],
      ['2026-03-02T18:00:00Z', 'SK'],
      ['2026-03-02T20:00:00Z', 'SK'],
    ]);
    expect(rows(r)).toEqual([
      ['Domestic', 'SK', 5, '5-12h', '9.30'],
      ['Foreign', 'AT', 10, '>6-12h', '22.50'],
    ]);
  });

  it('PL: 50 min in Germany are paid abroad (≤ 8 h: ⅓ × 49 = 16.33 €); the home stays of 5 h and 4 h 10 min stay apart', () => {
    // 07:00 (06:00Z) depart; into DE 12:00 (11:00Z); back 12:50 (11:50Z); home 17:00 (16:00Z).
    const r = run('PL', [
      ['2026-03-02T06:00:00Z', 'PL'],
      ['2026-03-02T11:00:00Z', 'DE'],
      ['2026-03-02T11:50:00Z', 'PL'],
      ['2026-03-02T16:00:00Z', 'PL'],
    ]);
    expect(rows(r)).toEqual([
      ['Domestic', 'PL', 5, '<8h', '0.00'],
      ['Foreign', 'DE', 0.83, '<=8h', '16.33'],
      ['Domestic', 'PL', 4.17, '<8h', '0.00'],
    ]);
  });

  it('HR: 5 h in Austria (under 8 h) pays nothing abroad and nothing moves home: 3 h + 5 h + 5 h, 0.00 €', () => {
    const r = run('HR', [
      ['2026-03-02T06:00:00Z', 'HR'],
      ['2026-03-02T09:00:00Z', 'AT'],
      ['2026-03-02T14:00:00Z', 'HR'],
      ['2026-03-02T19:00:00Z', 'HR'],
    ]);
    expect(rows(r)).toEqual([
      ['Domestic', 'HR', 3, null, '0.00'],
      ['Foreign', 'AT', 5, null, '0.00'],
      ['Domestic', 'HR', 5, null, '0.00'],
    ]);
  });

  it('SI (2025): 5 h in Croatia (not over 6 h) pays nothing abroad and nothing moves home: 0.00 €', () => {
    const r = run('SI', [
      ['2025-06-02T06:00:00Z', 'SI'],
      ['2025-06-02T09:00:00Z', 'HR'],
      ['2025-06-02T14:00:00Z', 'SI'],
      ['2025-06-02T19:00:00Z', 'SI'],
    ]);
    expect(rows(r)).toEqual([
      ['Domestic', 'SI', 3, null, '0.00'],
      ['Foreign', 'HR', 5, null, '0.00'],
      ['Domestic', 'SI', 5, null, '0.00'],
    ]);
  });
});
