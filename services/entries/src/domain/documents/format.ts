// How a printed form writes amounts, dates and times in its market (docs/decisions/0137). Amounts stay
// decimal text from the money package: only the separators change, never a binary float.
import { MARKET_PROFILES } from '@travel/per-diem';
import type { Market } from '@travel/platform';
import { formatWallClock, parseInstant } from '@travel/per-diem/src/time';

/** Decimal comma everywhere; HR and SI group thousands with a dot, CZ, SK and PL with a space. */
const GROUPING: Record<Market, string> = { HR: '.', SI: '.', CZ: ' ', SK: ' ', PL: ' ' };

/** `-1234.50` → `-1.234,50` (HR) or `-1 234,50` (CZ); null or blank → empty (a line to fill by hand). */
export function formatAmount(market: Market, text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '';
  const negative = text.startsWith('-');
  const [whole, fraction] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, GROUPING[market]);
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `,${fraction}`}`;
}

/** `2026-11-02` → `02.11.2026` (the five markets write dates day first with dots). */
export function formatDate(date: string | null | undefined): string {
  if (!date) return '';
  const [y, m, d] = date.slice(0, 10).split('-');
  return `${d}.${m}.${y}`;
}

/** A UTC instant as the market's wall clock: `02.11.2026 07:00`. */
export function formatDateTime(market: Market, instant: string | Date | null | undefined): string {
  if (!instant) return '';
  const t = instant instanceof Date ? instant.getTime() : parseInstant(instant);
  if (t === null) return '';
  const wall = formatWallClock(MARKET_PROFILES[market].zone, t);
  return `${formatDate(wall)} ${wall.slice(11, 16)}`;
}
