import { Schema } from 'mongoose';

const nullableString = { type: String, default: null };

/**
 * A per-diem row inside its entry document (docs/decisions/0070): amounts as decimal text, times as the
 * engine's UTC text. `amountInBaseCurrency` is the row's payable amount in the base currency (null when
 * unknown); payouts sum it with the expenses.
 */
export function perDiemSchema(): Schema {
  return new Schema(
    {
      countryCode: { type: String, required: true },
      departureTime: { type: String, required: true },
      arrivalTime: { type: String, required: true },
      breakfastsProvided: { type: Number, required: true },
      lunchesProvided: { type: Number, required: true },
      dinnersProvided: { type: Number, required: true },
      mealsProvidedAllocation: { type: Schema.Types.Mixed, default: null },
      manualExchangeRate: nullableString,
      overrideAmount: nullableString,
      overrideReason: nullableString,
      nightAllocation: { type: Schema.Types.Mixed, default: null },
      kind: { type: String, required: true },
      date: { type: String, required: true },
      hours: { type: Number, required: true },
      band: nullableString,
      grossAmount: nullableString,
      amount: nullableString,
      currencyCode: nullableString,
      excessAmount: nullableString,
      // Rows stored before the company policy (issue 22) have neither: reads derive the tax-free part.
      taxFreeAmount: nullableString,
      payableAmount: nullableString,
      policyEffectiveFrom: nullableString,
      nightAllocationAmount: nullableString,
      fxDate: nullableString,
      exchangeRateSource: nullableString,
      amountInBaseCurrency: nullableString,
      taxTreatment: { type: String, required: true },
      source: { type: Schema.Types.Mixed, default: null },
      // Rows stored before company rates (docs/decisions/0188) have neither: reads answer [] and Statutory.
      reported: { type: Schema.Types.Mixed, default: undefined },
      rateBasis: { type: String, default: undefined },
      rule: { type: String, required: true },
      reason: nullableString,
      warnings: { type: [String], default: [] },
      nights: { type: Number, required: true },
    },
    { _id: false, minimize: false },
  );
}
