import { CONVERT_PATH, type ConvertRequestBody, type ConvertResponseBody } from '@travel/contracts';
import type { Router } from 'express';
import {
  isCurrency,
  parseWireAmount,
  parseWireDecimal,
  toAmountText,
  WireFormatError,
  type Decimal,
} from '@travel/money';
import { apiRouter, FieldErrorCollector, route } from '@travel/platform';
import type { FxRatesApp } from '../app/fx-rates';
import { isMarket } from '../domain/fx-providers';
import { isCalendarDate } from '../domain/fx-publication';

const KNOWN = new Set(['market', 'amount', 'currency', 'date', 'manualRate']);

/** Service-to-service FX routes, mounted under /internal (behind a service context). */
export function fxInternalRoutes(fx: FxRatesApp): Router {
  const r = apiRouter();
  r.post(
    CONVERT_PATH,
    route(async (req, res) => {
      const body = (req.body ?? {}) as Partial<ConvertRequestBody> & Record<string, unknown>;
      const errors = new FieldErrorCollector();
      for (const key of Object.keys(body)) if (!KNOWN.has(key)) errors.add(key, 'is not a known field');
      if (!isMarket(body.market)) errors.add('market', 'must be one of HR, SI, SK, CZ, PL');
      const currency = typeof body.currency === 'string' && isCurrency(body.currency) ? body.currency : undefined;
      if (!currency) errors.add('currency', 'must be a known ISO 4217 currency code');
      if (typeof body.date !== 'string' || !isCalendarDate(body.date))
        errors.add('date', 'must be a date (yyyy-MM-dd)');
      const read = (field: string, parse: () => Decimal): Decimal | undefined => {
        try {
          return parse();
        } catch (err) {
          if (!(err instanceof WireFormatError)) throw err;
          errors.add(field, err.message);
          return undefined;
        }
      };
      const amount = currency ? read('amount', () => parseWireAmount(body.amount, currency)) : undefined;
      const manualRate =
        body.manualRate === undefined || body.manualRate === null
          ? undefined
          : read('manualRate', () => parseWireDecimal(body.manualRate, { positive: true }));
      errors.throwIfAny();
      const result = await fx.convert({
        market: body.market!,
        amount: amount!,
        currency: currency!,
        date: body.date!,
        manualRate,
      });
      const answer: ConvertResponseBody = {
        amount: result.amount.toString(),
        currency: result.currency,
        date: result.date,
        baseAmount: toAmountText(result.baseAmount, result.baseCurrency),
        baseCurrency: result.baseCurrency,
        rate: result.rate?.toString() ?? null,
        units: result.units,
        direction: result.direction,
        rateDate: result.rateDate,
        source: result.source,
      };
      res.json(answer);
    }),
  );
  return r;
}
