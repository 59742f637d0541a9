// PL: the nights of a trip. A night counts when at least the table's minimum (6 hours) of the trip lies
// inside its window (21:00 to 07:00 on the Warsaw wall clock, so 9 or 11 hours long on a DST night). The
// lump sum is paid only for a night the caller claims (no bill presented, no accommodation provided):
// 150 % of the dieta at home, a share of the country's hotel limit abroad (docs/decisions/0053).
import type { LegalSource, Market } from '@travel/regulations';
import { basisPoints, formatCents, percentOf, tableCents } from './amount';
import type { Stay } from './partition';
import { foreignRate, nightRules } from './tables';
import { DAY, dayString, formatInstant, HOUR, instantOfWall, localDate, offsetAt } from './time';
import type { NightRow } from './types';

/** `21:00` → milliseconds after midnight. */
const hm = (text: string) => (Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5))) * 60_000;

/** The windows of every night that touches the trip, with the trip's hours inside each. */
export function nightsOf(
  market: Market,
  zone: string,
  home: string,
  stays: Stay[],
  claimed: ReadonlySet<string>,
): NightRow[] {
  const tripStart = stays[0]!.start;
  const tripEnd = stays[stays.length - 1]!.end;
  const rules = nightRules(market, localDate(zone, tripStart));
  if (rules.status === 'unknown') return [];
  const { window } = rules.row;
  const from = hm(window.from);
  const to = hm(window.to);
  const minimum = window.minimumHours * HOUR;
  // Wall-clock midnights (UTC-encoded); the first night that can matter starts the evening before the
  // trip (a trip starting at 02:00).
  const startWall = tripStart + offsetAt(zone, tripStart);
  const nights: NightRow[] = [];
  for (let wallDay = startWall - (((startWall % DAY) + DAY) % DAY) - DAY; ; wallDay += DAY) {
    const winStart = instantOfWall(zone, wallDay + from);
    if (winStart >= tripEnd) break;
    const winEnd = instantOfWall(zone, wallDay + DAY + to);
    const date = dayString(Math.floor(wallDay / DAY));
    let inside = 0;
    let perCountry: Map<string, number> | null = null; // only when the window holds several stays
    let country = home;
    let best = -1;
    for (const stay of stays) {
      if (stay.end <= winStart) continue;
      if (stay.start >= winEnd) break;
      const part = Math.min(stay.end, winEnd) - Math.max(stay.start, winStart);
      let ms = part;
      if (inside > 0) {
        if (perCountry === null) perCountry = new Map([[country, best]]);
        ms = (perCountry.get(stay.countryCode) ?? 0) + part;
        perCountry.set(stay.countryCode, ms);
      }
      inside += part;
      if (ms > best) {
        best = ms;
        country = stay.countryCode;
      }
    }
    if (inside >= minimum) nights.push(priceNight(market, home, date, country, winStart, winEnd, inside, claimed));
  }
  return nights;
}

function priceNight(
  market: Market,
  home: string,
  date: string,
  countryCode: string,
  winStart: number,
  winEnd: number,
  inside: number,
  claimed: ReadonlySet<string>,
): NightRow {
  const found = lumpSumFor(market, home, date, countryCode);
  const isClaimed = claimed.has(date);
  const known = found.status === 'known';
  // One literal (no spread): this runs per night of every itinerary.
  return {
    date,
    countryCode,
    from: formatInstant(winStart),
    to: formatInstant(winEnd),
    hours: Math.round(inside / 36_000) / 100,
    status: found.status,
    reason: known ? null : found.reason,
    lumpSumAmount: known ? formatCents(found.cents) : null,
    claimed: isClaimed,
    amount: known ? formatCents(isClaimed ? found.cents : 0) : null,
    currencyCode: known ? found.currencyCode : null,
    source: known ? found.source : null,
  };
}

type LumpSum =
  { status: 'known'; cents: number; currencyCode: string; source: LegalSource } | { status: 'unknown'; reason: string };

/** The lump sum for a night in `countryCode`: 150 % of the dieta at home, a share of the hotel limit abroad. */
function lumpSumFor(market: Market, home: string, date: string, countryCode: string): LumpSum {
  const rules = nightRules(market, date);
  if (rules.status === 'unknown') return rules;
  if (countryCode === home) {
    return {
      status: 'known',
      cents: tableCents(rules.row.lumpSum),
      currencyCode: rules.row.currency,
      source: rules.row.source,
    };
  }
  const rate = foreignRate(market, countryCode, date);
  if (rate.status === 'unknown') return rate;
  const share = rules.row.foreignLumpSumPercentOfHotelLimit;
  if (rate.row.hotelLimit === undefined || share === undefined) {
    return { status: 'unknown', reason: `${market} hotel limit for ${countryCode} on ${date} is not verified.` };
  }
  return {
    status: 'known',
    cents: percentOf(tableCents(rate.row.hotelLimit), basisPoints(share), 'halfUp'),
    currencyCode: rate.row.currency,
    source: rate.row.source,
  };
}
