// Instants are milliseconds since the epoch (UTC). Wall-clock questions (where is midnight in Prague,
// which Warsaw date is this, when is 21:00 in Warsaw) go through Intl with the IANA zone, so daylight
// saving follows the zone database. Offsets are memoised per zone and UTC hour (every European zone
// changes its offset on a whole UTC hour), which keeps the engine fast without changing any answer.

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
const MAX_MEMO = 200_000;

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;
/**
 * What parseInstant reads, as the contract's `pattern` of an itinerary's times (docs/decisions/0119; a
 * test compares): the fields in range, the offset optional. Only a day past its month's end (04-31,
 * 02-30) passes the pattern and is refused by the code.
 */
export const INSTANT_PATTERN =
  /^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,9})?)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])?$/;

/**
 * An ISO 8601 date-time as UTC milliseconds. Without an offset it is read as UTC (the spec: stop times
 * are read as UTC); with one, the offset is honoured. null when the text is not a real instant.
 */
export function parseInstant(text: string): number | null {
  const fast = parseCanonical(text);
  if (fast !== null) return fast;
  const m = ISO.exec(text);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const s = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  const t = utcMillis(y, mo, d, h, mi, s, ms);
  const zone = m[8];
  if (zone === undefined || zone === 'Z') return t;
  const oh = Number(zone.slice(1, 3));
  const om = Number(zone.slice(4, 6));
  if (oh > 23 || om > 59) return null;
  return t - (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
}

/** Date.UTC for every year the pattern allows: Date.UTC reads the years 0-99 as 1900-1999. */
function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  return y < 100 ? new Date(t).setUTCFullYear(y) : t;
}

const digit = (text: string, i: number) => text.charCodeAt(i) - 48;
const two = (text: string, i: number) => digit(text, i) * 10 + digit(text, i + 1);

/**
 * The common spelling `yyyy-MM-ddTHH:mm:ssZ` (or with `.sss`), read without a regular expression; null for
 * anything else, which the general parser then reads.
 */
function parseCanonical(text: string): number | null {
  const n = text.length;
  if ((n !== 20 && n !== 24) || text.charCodeAt(n - 1) !== 90 /* Z */) return null;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return null;
  if (n === 24 && text[19] !== '.') return null;
  for (const i of n === 24 ? CANONICAL_DIGITS_MS : CANONICAL_DIGITS) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  const y = two(text, 0) * 100 + two(text, 2);
  const mo = two(text, 5);
  const d = two(text, 8);
  const h = two(text, 11);
  const mi = two(text, 14);
  const s = two(text, 17);
  const ms = n === 24 ? digit(text, 20) * 100 + two(text, 21) : 0;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  return utcMillis(y, mo, d, h, mi, s, ms);
}
const CANONICAL_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
const CANONICAL_DIGITS_MS = [...CANONICAL_DIGITS, 20, 21, 22];

function daysInMonth(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

const dayStrings = new Map<number, string>();

/** `yyyy-MM-dd` of a day number (days since 1970-01-01); memoised (a trip's rows share a few days). */
export function dayString(days: number): string {
  let text = dayStrings.get(days);
  if (text === undefined) {
    if (dayStrings.size >= MAX_MEMO) dayStrings.clear();
    dayStrings.set(days, (text = civilDay(days)));
  }
  return text;
}

/** The civil-from-days algorithm (H. Hinnant). */
function civilDay(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

const OFFSET = /(?:Z|[+-]\d{2}:\d{2})$/;

/** Whether an ISO 8601 date-time names its offset (`Z` or `±hh:mm`). */
export const hasOffset = (text: string): boolean => OFFSET.test(text);

/** The wall clock of `zone` at instant `t`, without an offset: `2026-03-02T07:00:00`. */
export function formatWallClock(zone: string, t: number): string {
  return formatInstant(t + offsetAt(zone, t)).slice(0, -1);
}

/** `2026-03-29T01:00:00Z`: UTC, without milliseconds when they are zero. */
export function formatInstant(t: number): string {
  const days = Math.floor(t / DAY);
  let rest = t - days * DAY;
  const h = Math.floor(rest / HOUR);
  rest -= h * HOUR;
  const mi = Math.floor(rest / 60_000);
  rest -= mi * 60_000;
  const s = Math.floor(rest / 1000);
  const ms = rest - s * 1000;
  const time = `${pad2(h)}:${pad2(mi)}:${pad2(s)}`;
  return `${dayString(days)}T${time}${ms === 0 ? '' : `.${String(ms).padStart(3, '0')}`}Z`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

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
let lastZone = '';
let lastMemo = new Map<number, number>();

export function offsetAt(zone: string, t: number): number {
  let memo = lastMemo;
  if (zone !== lastZone) {
    memo = offsets.get(zone) ?? new Map();
    offsets.set(zone, memo);
    lastZone = zone;
    lastMemo = memo;
  }
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
  return dayString(Math.floor((t + offsetAt(zone, t)) / DAY));
}

/**
 * The instant at which the wall clock in `zone` shows `wall` (milliseconds of a UTC-encoded wall time).
 * A wall time skipped by a spring-forward gap resolves to the instant after the gap; one that occurs twice
 * (autumn) resolves to its second occurrence.
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
