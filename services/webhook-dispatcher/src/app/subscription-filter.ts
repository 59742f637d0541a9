import { matchesFilter, type PayloadFilter } from '../domain/payload-filter';
import type { SubscriptionDoc } from '../infra/repositories';

/** Filters parsed once per process: a busy subscription's filter is evaluated for every event it sees. */
const parsed = new Map<string, PayloadFilter>();
const MAX_PARSED = 10_000;

function filterOf(text: string): PayloadFilter {
  let filter = parsed.get(text);
  if (!filter) {
    if (parsed.size >= MAX_PARSED) parsed.clear();
    filter = JSON.parse(text) as PayloadFilter;
    parsed.set(text, filter);
  }
  return filter;
}

/** Whether the subscription takes an event with this `data` (no filter: every event; docs/decisions/0231). */
export function takesEvent(sub: Pick<SubscriptionDoc, 'filter'>, data: unknown): boolean {
  if (!sub.filter) return true;
  return matchesFilter(filterOf(sub.filter), (data ?? {}) as Record<string, unknown>);
}
