import { isCalendarDate } from './calendar-date';

describe("isCalendarDate (the contract's format: date)", () => {
  it.each(['2026-11-02', '2024-02-29', '0035-10-27', '0000-01-01', '9999-12-31'])('accepts %s', (value) => {
    expect(isCalendarDate(value)).toBe(true);
  });

  it.each(['2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '2026-1-02', '2026-11-02T00:00:00Z', ''])(
    'refuses %p',
    (value) => {
      expect(isCalendarDate(value)).toBe(false);
    },
  );
});
