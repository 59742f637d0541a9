import { AppError, type CallerContext, type FieldErrors } from '@travel/platform';
import { decimalText, fromUnits, minorDigitsOf, toUnits } from '../domain/amounts';
import type { Conversion, CurrencyConverter } from './ports';

/** Field names of the amount being converted, so reference-fx's field errors land on the caller's fields. */
export interface AmountFields {
  amount: string;
  currency: string;
  date: string;
  manualRate: string;
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
): Promise<{ conversion?: Conversion; errors: FieldErrors; error?: AppError }> {
  const baseDigits = minorDigitsOf(caller.baseCurrency);
  if (input.currency === caller.baseCurrency || toUnits(input.amount, minorDigitsOf(input.currency)) === 0n) {
    const sameCurrency = input.currency === caller.baseCurrency;
    return {
      conversion: {
        baseAmount: sameCurrency
          ? fromUnits(toUnits(input.amount, baseDigits), baseDigits)
          : (decimalText(0, baseDigits) as string),
        source: null,
      },
      errors: {},
    };
  }
  try {
    const conversion = await fx.convert({ market: caller.market, ...input });
    return { conversion, errors: {} };
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'VALIDATION_FAILED' && err.code !== 'EXCHANGE_RATE_UNAVAILABLE'))
      throw err;
    const errors: FieldErrors = {};
    const keys: Record<string, string> = fields as unknown as Record<string, string>;
    for (const [key, messages] of Object.entries(err.errors ?? {}))
      (errors[keys[key] ?? fields.currency] ??= []).push(...messages);
    if (Object.keys(errors).length === 0) errors[fields.currency] = [err.message];
    return { errors, error: err };
  }
}
