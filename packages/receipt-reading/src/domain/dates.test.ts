import { findDate, findTime } from './dates';

describe("the markets' date forms", () => {
  it.each([
    ['29.11.2026.', '2026-11-29'], // HR, with the closing dot
    ['29. 11. 2026', '2026-11-29'], // SI
    ['29.11.2026 14:05', '2026-11-29'], // SK, CZ
    ['2026-11-29', '2026-11-29'], // PL, ISO
    ['29/11/2026', '2026-11-29'],
    ['3.1.2025', '2025-01-03'],
  ])('%s is %s', (printed, iso) => expect(findDate(printed)?.value).toBe(iso));

  it('refuses dates that do not exist', () => {
    expect(findDate('31.02.2026')).toBeUndefined();
    expect(findDate('13/13/2026')).toBeUndefined();
  });

  it('reads the time after the date, and not an amount', () => {
    const line = '26.11.2025.          08:18:41';
    expect(findTime(line, findDate(line)!.end)).toBe('08:18:41');
    expect(findTime('Datum 2026-01-02 9:05')).toBe('09:05');
    expect(findTime('UKUPNO 12.50')).toBeUndefined();
  });
});
