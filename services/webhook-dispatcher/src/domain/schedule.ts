// The retry schedule: the delay before attempts 2..9. Configurable so tests run all nine in seconds.
export const SPEC_SCHEDULE = '30s,1m,5m,15m,1h,3h,12h,24h';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface Tier {
  /** Delay as written (`30s`): wait-queue names carry it, so a changed schedule gets new queues. */
  label: string;
  ms: number;
}

export function parseSchedule(text: string): Tier[] {
  const tiers = text.split(',').map((part) => {
    const label = part.trim();
    const m = /^(\d+)(ms|s|m|h|d)$/.exec(label);
    if (!m) throw new Error(`"${label}" is not a delay like 30s, 5m or 1h`);
    const ms = Number(m[1]) * UNITS[m[2]!]!;
    if (ms <= 0) throw new Error(`"${label}" must be positive`);
    return { label, ms };
  });
  if (tiers.length !== 8) throw new Error(`the schedule needs 8 delays (9 attempts), got ${tiers.length}`);
  return tiers;
}
