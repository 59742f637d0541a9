// The company per-diem policy as other services read it (issue 22 §2, docs/decisions/0127): its shape, the
// version in force on a date, and the small client entries prices per-diem rows with
// (`GET /internal/tenants/{tenantId}/per-diem-policy`, service context only, never through the gateway).
// Amounts travel as decimal text, so nothing passes through binary floating point.
import type { KeyObject } from 'node:crypto';
import { InternalClient, tenantPath, type Market } from '@travel/platform';

/** `Public` (CZ only): the decree's public-sector ranges are the ceiling, and abroad the decree rate is paid. */
export type PolicySector = 'Private' | 'Public';

/** What the company pays for one domestic band, before meal reductions, in the base currency (decimal text). */
export interface PolicyBandAmount {
  band: string;
  amount: string;
}

/** One version of the policy: in force from `effectiveFrom` until the next version's date. */
export interface PerDiemPolicyVersion {
  effectiveFrom: string;
  domesticBands: PolicyBandAmount[];
  /** CZ: the foreign base rate agreed before the trip as a percentage of the decree rate (§170(2)); decimal text. */
  foreignBaseRatePercent: string | null;
}

export interface PerDiemPolicy {
  sector: PolicySector;
  /** Sorted by `effectiveFrom`, one per date. */
  versions: PerDiemPolicyVersion[];
}

/** No policy: every row pays the statutory amount. */
export const NO_POLICY: PerDiemPolicy = { sector: 'Private', versions: [] };

/**
 * Markets where the statutory domestic per-diem is a minimum the employer must pay (the engine's
 * `StatutoryMinimum` tax treatment: CZ §163, SK 283/2002, PL rozporządzenie). In HR and SI the figure is
 * a tax-free cap, not a floor (REGULATIONS.md), so a company may pay less.
 */
export const STATUTORY_FLOOR_MARKETS: readonly Market[] = ['CZ', 'SK', 'PL'];

/** The version in force on `date` (the latest whose `effectiveFrom` is not after it), or null. */
export function policyVersionOn(policy: PerDiemPolicy, date: string): PerDiemPolicyVersion | null {
  let found: PerDiemPolicyVersion | null = null;
  for (const v of policy.versions)
    if (v.effectiveFrom <= date && (!found || v.effectiveFrom > found.effectiveFrom)) found = v;
  return found;
}

export const PER_DIEM_POLICY_SEGMENT = 'per-diem-policy';

/** Reads a company's policy from reference-fx; an unreachable reference-fx is 503, never "no policy". */
export class PerDiemPolicyClient {
  private readonly client: InternalClient;

  constructor(baseUrl: string, signingKey: KeyObject, caller: string, timeoutMs = 5000) {
    this.client = new InternalClient({ baseUrl, signingKey, caller, target: 'reference-fx', timeoutMs });
  }

  async policyOf(tenantId: string): Promise<PerDiemPolicy> {
    return (await this.client.getOrNull<PerDiemPolicy>(tenantPath(tenantId, PER_DIEM_POLICY_SEGMENT))) ?? NO_POLICY;
  }
}
