// The @travel/regulations lookups the engine makes, memoised per market, country and date. The tables
// are immutable data, so a memoised answer is the same answer; the memo spares each row a date check
// and a scan of the versions (the benchmark's largest cost before it). Bounded: cleared when full.
import * as regulations from '@travel/regulations';
import type {
  DomesticPerDiem,
  ForeignRate,
  ForeignRules,
  Lookup,
  Market,
  NightRules,
  WorkerGroup,
} from '@travel/regulations';

const MAX = 20_000;

/** A memo keyed by two strings, without building a joined key per call. */
class Memo<T> {
  private readonly byFirst = new Map<string, Map<string, T>>();
  private size = 0;
  get(a: string, b: string, compute: () => T): T {
    let inner = this.byFirst.get(a);
    if (!inner) this.byFirst.set(a, (inner = new Map()));
    let value = inner.get(b);
    if (value === undefined) {
      if (++this.size > MAX) {
        this.byFirst.clear();
        this.size = 1;
        this.byFirst.set(a, (inner = new Map()));
      }
      value = compute();
      inner.set(b, value);
    }
    return value;
  }
}

const domestic = new Memo<Lookup<DomesticPerDiem>>();
const rules = new Memo<Lookup<ForeignRules>>();
const rates = new Map<string, Memo<Lookup<ForeignRate>>>();
const nights = new Memo<Lookup<NightRules>>();

export const domesticPerDiem = (market: Market, date: string): Lookup<DomesticPerDiem> =>
  domestic.get(market, date, () => regulations.domesticPerDiem(market, date));

export const foreignRules = (market: Market, date: string): Lookup<ForeignRules> =>
  rules.get(market, date, () => regulations.foreignRules(market, date));

/** `group`: the worker group whose own rates apply (SK mobile road-transport workers). */
export function foreignRate(
  market: Market,
  countryCode: string,
  date: string,
  group?: WorkerGroup,
): Lookup<ForeignRate> {
  const key = group === undefined ? market : `${market}|${group}`;
  let memo = rates.get(key);
  if (!memo) rates.set(key, (memo = new Memo()));
  return memo.get(countryCode, date, () => regulations.foreignRate(market, countryCode, date, group));
}

export const nightRules = (market: Market, date: string): Lookup<NightRules> =>
  nights.get(market, date, () => regulations.nightRules(market, date));
