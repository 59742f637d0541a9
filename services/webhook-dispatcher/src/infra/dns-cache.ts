import type { Resolve } from './destination';

/** Hosts remembered at once; past it the longest remembered goes first. A bound on memory, not a knob. */
export const MAX_CACHED_HOSTS = 10_000;

interface Remembered {
  answers: ReturnType<Resolve>;
  /** The answers are not used at or after this time (epoch ms), counted from when they were asked for. */
  until: number;
}

/**
 * A resolver for sends that reuses a host's answers for `ttlMs` and gives concurrent sends to one host
 * one lookup (decision 0242). The address policy still holds: every answer is checked before a send and
 * the connection goes to the checked address, so a remembered answer is at worst an old one, never an
 * unchecked one. A failed lookup is not remembered. `ttlMs` 0: every send looks up.
 */
export function cachingResolve(resolve: Resolve, ttlMs: number, now: () => number = Date.now): Resolve {
  if (ttlMs <= 0) return resolve;
  const hosts = new Map<string, Remembered>();
  return (host) => {
    const at = now();
    const known = hosts.get(host);
    if (known && at < known.until) return known.answers;
    hosts.delete(host);
    const answers = resolve(host);
    hosts.set(host, { answers, until: at + ttlMs });
    if (hosts.size > MAX_CACHED_HOSTS) hosts.delete(hosts.keys().next().value!);
    answers.catch(() => {
      if (hosts.get(host)?.answers === answers) hosts.delete(host);
    });
    return answers;
  };
}
