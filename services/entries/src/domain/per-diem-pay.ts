// What a per-diem row pays, and how that splits into the statutory tax-free part and the taxable excess
// (issue 22 §2, docs/decisions/0129). One model for the override and the company policy: the payable
// amount is the override when given, else the company policy's amount of the row's date, else the
// statutory amount; the part up to the statutory amount is tax-free, what lies above it is the taxable
// excess. The statutory figures themselves always come from the engine (@travel/per-diem).
import type { Market } from '@travel/platform';
import { companyForeignRateOn, policyVersionOn, STATUTORY_FLOOR_MARKETS, type PerDiemPolicy } from '@travel/contracts';
import type { CompanyRates } from '@travel/per-diem';
import { Decimal, roundText } from './amounts';

/** The engine's figures of a row that decide its pay. */
export interface StatutoryRow {
  kind: 'Domestic' | 'Foreign';
  /** The account date: the policy version in force on it applies. */
  date: string;
  band: string | null;
  /** Statutory band amount before / after the meal reductions; null when the rate is unknown. */
  grossAmount: string | null;
  amount: string | null;
  /** The override as the engine read it (row currency, or base currency on an unknown row), or null. */
  overrideAmount: string | null;
  /**
   * Where `amount` comes from (docs/decisions/0188); absent or `Statutory`: the statutory tables. A company
   * rate is the policy's own amount already: no band amount or percentage of the policy applies to it.
   */
  rateBasis?: 'Statutory' | 'CompanyConfirmedReported' | 'CompanyRate' | null;
}

export interface RowPay {
  /** What the row pays in its currency; null when unknown (no statutory amount and no override). */
  payableAmount: string | null;
  /** The part of the payable amount up to the statutory amount; null when the statutory amount is unknown. */
  taxFreeAmount: string | null;
  /** What the override or the policy pays above the statutory amount (taxable); null when neither applies or unknown. */
  excessAmount: string | null;
  /** The effective date of the policy version that set the payable amount; null when it did not. */
  policyEffectiveFrom: string | null;
  warnings: string[];
}

const text2 = (d: Decimal) => roundText(d, 2);

/** The company policy's payable amount for a row with a known statutory amount and no override, or null. */
function policyPay(
  market: Market,
  row: StatutoryRow & { amount: string },
  policy: PerDiemPolicy,
): { amount: Decimal; effectiveFrom: string } | null {
  const version = policyVersionOn(policy, row.date);
  if (!version) return null;
  const statutory = new Decimal(row.amount);
  if (row.kind === 'Domestic') {
    const band = row.band === null ? undefined : version.domesticBands.find((b) => b.band === row.band);
    if (!band) return null;
    // The law's meal reductions are percentages of the per-diem; they cut the company's amount in the
    // same proportion as the statutory one (amount / gross). A band whose statutory gross is 0 has none.
    const gross = new Decimal(row.grossAmount ?? '0');
    const amount = gross.isZero()
      ? new Decimal(band.amount)
      : new Decimal(band.amount).times(statutory).dividedBy(gross);
    return { amount, effectiveFrom: version.effectiveFrom };
  }
  // CZ abroad: the base rate agreed before the trip, a percentage of the decree's (§170(2)); the band's
  // fraction and the meal reductions are percentages of the base rate, so the row scales the same way.
  if (market === 'CZ' && version.foreignBaseRatePercent !== null)
    return {
      amount: statutory.times(version.foreignBaseRatePercent).dividedBy(100),
      effectiveFrom: version.effectiveFrom,
    };
  return null;
}

/** The row's pay under the override or the company policy, and its tax-free and taxable parts. */
export function payOfRow(market: Market, row: StatutoryRow, policy: PerDiemPolicy): RowPay {
  const warnings: string[] = [];
  if (row.amount === null)
    return {
      payableAmount: row.overrideAmount,
      taxFreeAmount: null,
      excessAmount: null,
      policyEffectiveFrom: null,
      warnings,
    };
  if (row.rateBasis === 'CompanyRate' || row.rateBasis === 'CompanyConfirmedReported')
    return companyRatePay(row as StatutoryRow & { amount: string }, policy);
  const statutory = new Decimal(row.amount);
  let payable = statutory;
  let policyEffectiveFrom: string | null = null;
  if (row.overrideAmount !== null) payable = new Decimal(row.overrideAmount);
  else {
    const byPolicy = policyPay(market, { ...row, amount: row.amount }, policy);
    if (byPolicy) {
      payable = new Decimal(text2(byPolicy.amount));
      policyEffectiveFrom = byPolicy.effectiveFrom;
      // The policy was checked against every decree known when it was written; a later decree may raise
      // the minimum above it, and the minimum is then what the row pays.
      if (STATUTORY_FLOOR_MARKETS.includes(market) && row.kind === 'Domestic' && payable.lessThan(statutory)) {
        warnings.push(
          `The company policy from ${byPolicy.effectiveFrom} pays ${text2(payable)}, below the statutory minimum ${row.amount} in force on ${row.date}; the statutory minimum is paid.`,
        );
        payable = statutory;
      }
    }
  }
  const taxFree = Decimal.min(payable, statutory);
  const changed = row.overrideAmount !== null || policyEffectiveFrom !== null;
  return {
    payableAmount: text2(payable),
    taxFreeAmount: text2(taxFree),
    excessAmount: changed ? text2(payable.minus(taxFree)) : null,
    policyEffectiveFrom,
    warnings,
  };
}

/**
 * A foreign row the engine priced with the company's own rate (no statutory rate on its date; docs/
 * decisions/0188): it pays that amount (or the override). Where the rate is a reported figure the company
 * confirmed, the amount is treated as the statutory one: tax-free up to it, the excess taxable. Where it is
 * not, no verified figure says how much is tax-free: the tax-free part and the excess are unknown (null),
 * and payroll taxes the row whole.
 */
function companyRatePay(row: StatutoryRow & { amount: string }, policy: PerDiemPolicy): RowPay {
  const amount = new Decimal(row.amount);
  const payable = row.overrideAmount !== null ? new Decimal(row.overrideAmount) : amount;
  const policyEffectiveFrom =
    row.overrideAmount !== null ? null : (policyVersionOn(policy, row.date)?.effectiveFrom ?? null);
  if (row.rateBasis === 'CompanyRate')
    return {
      payableAmount: text2(payable),
      taxFreeAmount: null,
      excessAmount: null,
      policyEffectiveFrom,
      warnings: [],
    };
  const taxFree = Decimal.min(payable, amount);
  return {
    payableAmount: text2(payable),
    taxFreeAmount: text2(taxFree),
    excessAmount: text2(payable.minus(taxFree)),
    policyEffectiveFrom,
    warnings: [],
  };
}

/** The policy's per-country rates as the engine asks them (docs/decisions/0188). */
export const companyRatesOf =
  (policy: PerDiemPolicy): CompanyRates =>
  (countryCode, date) =>
    companyForeignRateOn(policy, countryCode, date);
