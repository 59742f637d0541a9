// A calendar day as the contract's `format: date` means it (RFC 3339 full-date, years 0000-9999), written
// once for every context (docs/decisions/0119). Pure: `src/domain` may import it by path.

const FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether `value` is a real day in `yyyy-MM-dd`: 2026-02-30 is not, 0035-10-27 is. Parsed as an ISO date
 * string, never through `Date.UTC`, which reads the years 0-99 as 1900-1999.
 */
export function isCalendarDate(value: string): boolean {
  if (!FULL_DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}
