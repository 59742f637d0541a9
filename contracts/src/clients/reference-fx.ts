// The reference-fx context's internal routes and the one client other services call them with (entries:
// expenses, advances, per-diems, the calculator): the conversion (`POST /internal/fx/convert`) and the
// company's per-diem policy (`GET /internal/tenants/{t}/per-diem-policy`, decision 0127). Decimals travel
// as decimal text, so nothing passes through binary floating point.
import type { components } from '../../generated/openapi';
import { tenantPath, type InternalTransport } from './transport';

/** The five markets (the company's `market`). */
export type Market = components['schemas']['Company']['market'];

/** The conversion's path below `/internal`. */
export const CONVERT_PATH = '/fx/convert';

export interface ConvertRequestBody {
  /** The tenant's market: decides the provider and the base currency. */
  market: Market;
  /** Decimal text (or a JSON number) with at most the currency's minor digits. */
  amount: string | number;
  currency: string;
  /** The referential date, yyyy-MM-dd. */
  date: string;
  /** Honoured only when the provider has no rate for the date; in the provider's direction, per 1 unit. */
  manualRate?: string | number | null;
}

export interface ConvertResponseBody {
  amount: string;
  currency: string;
  date: string;
  /** Rounded half-up to the base currency's minor digits. */
  baseAmount: string;
  baseCurrency: string;
  /** The rate used, as published (per `units`); null for the base currency itself. */
  rate: string | null;
  units: number | null;
  direction: 'ForeignPerBase' | 'BasePerForeign' | null;
  /** The publication date of the rate (the requested date for a manual rate); null for the base currency. */
  rateDate: string | null;
  /** `HNB`, `ECB`, `CNB`, `NBP`, `MANUAL`, or null for the base currency. */
  source: 'HNB' | 'ECB' | 'CNB' | 'NBP' | 'MANUAL' | null;
}

/** `Public` (CZ only): the decree's public-sector ranges are the ceiling, and abroad the decree rate is paid. */
export type PolicySector = 'Private' | 'Public';

/** What the company pays for one domestic band, before meal reductions, in the base currency (decimal text). */
export interface PolicyBandAmount {
  band: string;
  amount: string;
}

/**
 * The company's own daily rate for trips to one country (docs/decisions/0188): paid only where the
 * statutory rate is unknown on the row's date. `amount` decimal text in `currencyCode`; `confirmedBy` (the
 * employee id of the caller who set it) and `confirmedAt` (ISO 8601 UTC) are set by reference-fx.
 */
export interface CompanyForeignRate {
  countryCode: string;
  amount: string;
  currencyCode: string;
  confirmedBy: string;
  confirmedAt: string;
}

/** One version of the policy: in force from `effectiveFrom` until the next version's date. */
export interface PerDiemPolicyVersion {
  effectiveFrom: string;
  domesticBands: PolicyBandAmount[];
  /** CZ: the foreign base rate agreed before the trip as a percentage of the decree rate (§170(2)); decimal text. */
  foreignBaseRatePercent: string | null;
  /** The company's own per-country rates (absent on a policy stored before they existed: none). */
  foreignRates?: CompanyForeignRate[];
}

/** The company's per-diem policy as reference-fx answers it (issue 22 §2, decision 0127). */
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
 * a tax-free cap, not a floor (REGULATIONS.md), so a company may pay less. reference-fx refuses a policy
 * below it; entries pays it.
 */
export const STATUTORY_FLOOR_MARKETS: readonly Market[] = ['CZ', 'SK', 'PL'];

/** The version in force on `date` (the latest whose `effectiveFrom` is not after it), or null. */
export function policyVersionOn(policy: PerDiemPolicy, date: string): PerDiemPolicyVersion | null {
  let found: PerDiemPolicyVersion | null = null;
  for (const v of policy.versions)
    if (v.effectiveFrom <= date && (!found || v.effectiveFrom > found.effectiveFrom)) found = v;
  return found;
}

/** The company's rate for `countryCode` in the version in force on `date`, with that version's date, or null. */
export function companyForeignRateOn(
  policy: PerDiemPolicy,
  countryCode: string,
  date: string,
): (CompanyForeignRate & { effectiveFrom: string }) | null {
  const version = policyVersionOn(policy, date);
  const rate = version?.foreignRates?.find((r) => r.countryCode === countryCode);
  return rate && version ? { ...rate, effectiveFrom: version.effectiveFrom } : null;
}

/** The policy's path segment: `/api/v1/per-diem-policy` and `/internal/tenants/{t}/per-diem-policy`. */
export const PER_DIEM_POLICY_SEGMENT = 'per-diem-policy';

/** A 400 of the conversion keeps its code when it is this one; any other 400 is VALIDATION_FAILED. */
const RATE_UNAVAILABLE = 'EXCHANGE_RATE_UNAVAILABLE';

/**
 * reference-fx as other services ask it. A 400 conversion answer (`EXCHANGE_RATE_UNAVAILABLE`,
 * `VALIDATION_FAILED`) comes back as the same error, so the caller answers its own client with the same
 * code and field errors (keyed amount, currency, date, manualRate); anything else is 503. An unreachable
 * reference-fx is 503 for the policy too, never "no policy".
 */
export class ReferenceFxClient {
  constructor(private readonly transport: InternalTransport) {}

  async convert(body: ConvertRequestBody): Promise<ConvertResponseBody> {
    const res = await this.transport.send('POST', CONVERT_PATH, body);
    if (res.status === 400) {
      const problem = (await res.json()) as { code?: string; detail?: string; errors?: Record<string, string[]> };
      throw this.transport.refused({
        code: problem.code === RATE_UNAVAILABLE ? RATE_UNAVAILABLE : 'VALIDATION_FAILED',
        detail: problem.detail,
        errors: problem.errors,
      });
    }
    if (!res.ok) throw this.transport.failed(res);
    return (await res.json()) as ConvertResponseBody;
  }

  async policyOf(tenantId: string): Promise<PerDiemPolicy> {
    return (await this.transport.getOrNull<PerDiemPolicy>(tenantPath(tenantId, PER_DIEM_POLICY_SEGMENT))) ?? NO_POLICY;
  }
}
