// Instants are milliseconds since the epoch (UTC). Wall-clock questions (where is midnight in Prague,
// which Warsaw date is this, when is 21:00 in Warsaw) go through Intl with the IANA zone, so daylight
// saving follows the zone database. Offsets are memoised per zone and UTC hour (every European zone
// changes its offset on a whole UTC hour), which keeps the engine fast without changing any answer.

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * An ISO 8601 date-time as UTC milliseconds. Without an offset it is read as UTC (the spec: stop times
 * are read as UTC); with one, the offset is honoured. null when the text is not a real instant.
 */
export function parseInstant(text: string): number | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  if (new Date(t).getUTCDate() !== d) return null; // 2026-02-30
  const zone = m[8];
  if (!zone || zone === 'Z') return t;
  const sign = zone[0] === '-' ? -1 : 1;
  const oh = Number(zone.slice(1, 3));
  const om = Number(zone.slice(4, 6));
  if (oh > 23 || om > 59) return null;
  return t - sign * (oh * 60 + om) * 60_000;
}

/** `2026-03-29T01:00:00Z`: UTC, without milliseconds when they are zero. */
export function formatInstant(t: number): string {
  const iso = new Date(t).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();
const MAX_MEMO = 200_000;

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

function computeOffset(zone: string, t: number): number {
  const parts = formatter(zone).formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(t / 1000) * 1000;
}

/** The zone's offset from UTC at instant `t`, in milliseconds (Prague in summer: +7,200,000). */
export function offsetAt(zone: string, t: number): number {
  let memo = offsets.get(zone);
  if (!memo) offsets.set(zone, (memo = new Map()));
  const key = Math.floor(t / HOUR);
  let off = memo.get(key);
  if (off === undefined) {
    if (memo.size >= MAX_MEMO) memo.clear();
    off = computeOffset(zone, key * HOUR);
    memo.set(key, off);
  }
  return off;
}

/** The local calendar date (`yyyy-MM-dd`) of instant `t` in `zone`. */
export function localDate(zone: string, t: number): string {
  return new Date(t + offsetAt(zone, t)).toISOString().slice(0, 10);
}

/**
 * The instant at which the wall clock in `zone` shows `wall` (milliseconds of a UTC-encoded wall time).
 * A wall time skipped by a spring-forward gap resolves to the instant after the gap; one that occurs twice
 * (autumn) resolves to one of its two instants (no boundary the engine asks for falls in that hour).
 */
export function instantOfWall(zone: string, wall: number): number {
  const first = wall - offsetAt(zone, wall);
  const second = wall - offsetAt(zone, first);
  if (second === first) return first;
  // Near a transition: `second` is right when the zone shows `wall` at it; otherwise `wall` fell in a
  // spring-forward gap and the later candidate is the first instant after it.
  return offsetAt(zone, second) + second === wall ? second : Math.max(first, second);
}

/** The local midnight that starts the calendar day of instant `t` in `zone`. */
export function startOfLocalDay(zone: string, t: number): number {
  const wall = t + offsetAt(zone, t);
  return instantOfWall(zone, wall - (((wall % DAY) + DAY) % DAY));
}

/** The instant `days` calendar days later on the wall clock of `zone` (a DST day is 23 or 25 hours). */
export function addWallDays(zone: string, t: number, days: number): number {
  return instantOfWall(zone, t + offsetAt(zone, t) + days * DAY);
}
