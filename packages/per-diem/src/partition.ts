// From stops to row windows. Stop i says where the traveller is from its time until the next stop; the
// last stop ends the trip. Consecutive stops in one country are one stay (itinerary-level: the legs of a
// stay are never priced apart). Each market's partition then cuts the stays into rows
// (docs/decisions/0051).
import type { MarketProfile } from './markets';
import { addWallDays, DAY, startOfLocalDay } from './time';

export interface Stay {
  countryCode: string;
  start: number;
  end: number;
}

/**
 * How a row's band is chosen: `hours` by the band table on the row's hours; `fullDay` a full day at 100 %
 * (PL); `startedDay` the started day that ends a PL stay over one day.
 */
export type WindowMode = 'hours' | 'fullDay' | 'startedDay';

export interface RowWindow {
  kind: 'Domestic' | 'Foreign';
  countryCode: string;
  /** The first and last instant of the row (for a calendar-day row: of its first and last piece). */
  start: number;
  end: number;
  /** Time counted for the band: the sum of the row's pieces. */
  ms: number;
  mode: WindowMode;
}

export function staysOf(times: number[], countries: string[]): Stay[] {
  const stays: Stay[] = [];
  for (let i = 0; i + 1 < times.length; i++) {
    const start = times[i]!;
    const end = times[i + 1]!;
    if (end <= start) continue;
    const last = stays[stays.length - 1];
    if (last && last.countryCode === countries[i] && last.end === start) last.end = end;
    else stays.push({ countryCode: countries[i]!, start, end });
  }
  return stays;
}

export function rowWindows(profile: MarketProfile, home: string, stays: Stay[]): RowWindow[] {
  switch (profile.partition) {
    case 'calendarDay':
      return calendarDays(profile.zone, home, stays, profile.minimumForeignDayMs ?? 0);
    case 'blocks24h': {
      const rows: RowWindow[] = [];
      for (const stay of stays) blocks24h(home, stay, rows);
      return rows;
    }
    case 'wallDays': {
      const rows: RowWindow[] = [];
      for (const stay of stays) wallDays(profile.zone, home, stay, rows);
      return rows;
    }
  }
}

const kindOf = (home: string, countryCode: string) => (countryCode === home ? 'Domestic' : 'Foreign');

/**
 * CZ, SK: per calendar day, one domestic row and one foreign row (the day's longest foreign stay names it).
 * A day with less than `minimumForeignMs` abroad has no foreign row: that time joins the domestic row.
 */
function calendarDays(zone: string, home: string, stays: Stay[], minimumForeignMs: number): RowWindow[] {
  const rows: RowWindow[] = [];
  const tripStart = stays[0]!.start;
  const tripEnd = stays[stays.length - 1]!.end;
  let dayStart = startOfLocalDay(zone, tripStart);
  let first = 0;
  while (dayStart < tripEnd) {
    const dayEnd = addWallDays(zone, dayStart, 1);
    let domestic: RowWindow | null = null;
    let foreign: RowWindow | null = null;
    const foreignTime = new Map<string, number>();
    let longest = '';
    let longestMs = 0;
    for (let i = first; i < stays.length; i++) {
      const stay = stays[i]!;
      if (stay.start >= dayEnd) break;
      const from = Math.max(stay.start, dayStart);
      const to = Math.min(stay.end, dayEnd);
      if (to <= from) continue;
      if (stay.countryCode === home) {
        if (domestic) {
          domestic.end = to;
          domestic.ms += to - from;
        } else domestic = { kind: 'Domestic', countryCode: home, start: from, end: to, ms: to - from, mode: 'hours' };
      } else {
        const ms = (foreignTime.get(stay.countryCode) ?? 0) + to - from;
        foreignTime.set(stay.countryCode, ms);
        // The longest stay of the day; on a tie the country entered later.
        if (ms >= longestMs) {
          longest = stay.countryCode;
          longestMs = ms;
        }
        if (foreign) {
          foreign.end = to;
          foreign.ms += to - from;
        } else foreign = { kind: 'Foreign', countryCode: '', start: from, end: to, ms: to - from, mode: 'hours' };
      }
    }
    if (foreign && foreign.ms < minimumForeignMs) {
      if (domestic) {
        domestic.start = Math.min(domestic.start, foreign.start);
        domestic.end = Math.max(domestic.end, foreign.end);
        domestic.ms += foreign.ms;
      } else domestic = { ...foreign, kind: 'Domestic', countryCode: home };
      foreign = null;
    }
    if (domestic) rows.push(domestic);
    if (foreign) {
      foreign.countryCode = longest;
      rows.push(foreign);
    }
    while (first < stays.length && stays[first]!.end <= dayEnd) first++;
    dayStart = dayEnd;
  }
  return rows.sort((a, b) => a.start - b.start);
}

/** HR, SI: full 24-hour blocks from the start of the stay; the remainder is one row in one band. */
function blocks24h(home: string, stay: Stay, rows: RowWindow[]): void {
  const kind = kindOf(home, stay.countryCode);
  let t = stay.start;
  while (stay.end - t > DAY) {
    rows.push({ kind, countryCode: stay.countryCode, start: t, end: t + DAY, ms: DAY, mode: 'hours' });
    t += DAY;
  }
  rows.push({ kind, countryCode: stay.countryCode, start: t, end: stay.end, ms: stay.end - t, mode: 'hours' });
}

/** PL: Warsaw wall-clock days from the start of the stay; within one day the short-trip bands apply. */
function wallDays(zone: string, home: string, stay: Stay, rows: RowWindow[]): void {
  const kind = kindOf(home, stay.countryCode);
  const row = (start: number, end: number, mode: WindowMode): RowWindow => ({
    kind,
    countryCode: stay.countryCode,
    start,
    end,
    ms: end - start,
    mode,
  });
  let next = addWallDays(zone, stay.start, 1);
  if (stay.end <= next) {
    rows.push(row(stay.start, stay.end, 'hours'));
    return;
  }
  let t = stay.start;
  let k = 1;
  while (next <= stay.end) {
    rows.push(row(t, next, 'fullDay'));
    t = next;
    next = addWallDays(zone, stay.start, ++k);
  }
  if (t < stay.end) rows.push(row(t, stay.end, 'startedDay'));
}
