import { AppError, type CallerContext, type FieldErrors } from '@travel/platform';
import { outOfRange } from '@travel/money';
import { Decimal, minorDigitsOf } from '../domain/amounts';
import { AMOUNT_RANGE } from '../domain/limits';
import type { Conversion, CurrencyConverter } from './ports';

/** Field names of the amount being converted, so reference-fx's field errors land on the caller's fields. */
export interface AmountFields {
  amount: string;
  currency: string;
  date: string;
  manualRate: string;
}

export interface Converted {
  conversion?: Conversion;
  errors: FieldErrors;
  error?: AppError;
}

/**
 * An amount in the base currency with its provenance. Same currency (or a zero amount): the amount
 * itself, source null, no call. Otherwise reference-fx converts on the referential date, applying the
 * manual-rate rule; its field errors are re-keyed to the request's field names.
 */
export async function toBaseCurrency(
  fx: CurrencyConverter,
  caller: CallerContext,
  input: { amount: string; currency: string; date: string; manualRate: string | null },
  fields: AmountFields,
): Promise<Converted> {
  const baseDigits = minorDigitsOf(caller.baseCurrency);
  const amount = new Decimal(input.amount);
  if (input.currency === caller.baseCurrency || amount.isZero()) {
    const baseAmount = input.currency === caller.baseCurrency ? amount : new Decimal(0);
    return { conversion: { baseAmount: baseAmount.toFixed(baseDigits), source: null }, errors: {} };
  }
  try {
    const conversion = await fx.convert({ market: caller.market, ...input });
    // The base amount keeps the product's maximum too: a large amount at a large manual rate is refused
    // here, not stored as a figure no JSON number can carry (docs/decisions/0107).
    const tooLarge = outOfRange(conversion.baseAmount, AMOUNT_RANGE);
    if (tooLarge) return { errors: { [fields.amount]: [`${tooLarge} once converted into ${caller.baseCurrency}`] } };
    return { conversion, errors: {} };
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'VALIDATION_FAILED' && err.code !== 'EXCHANGE_RATE_UNAVAILABLE'))
      throw err;
    const errors: FieldErrors = {};
    const keys = fields as unknown as Record<string, string>;
    for (const [key, messages] of Object.entries(err.errors ?? {}))
      (errors[keys[key] ?? fields.currency] ??= []).push(...messages);
    if (Object.keys(errors).length === 0) errors[fields.currency] = [err.message];
    return { errors, error: err };
  }
}
