import type { Router } from 'express';
import type { components, operations } from '@travel/contracts';
import { toWireNumber, decimalFromText } from '@travel/money';
import { answerByBody, apiRouter, callerOf, invalidField, pageRequest, route } from '@travel/platform';
import type { FxRatesApp, RateView } from '../app/fx-rates';
import { isCalendarDate } from '../domain/fx-publication';

type ExchangeRateDto = components['schemas']['ExchangeRate'];
type ListQuery = NonNullable<operations['listExchangeRates']['parameters']['query']>;
type ListResponse = operations['listExchangeRates']['responses']['200']['content']['application/json'];

/** Today in UTC (yyyy-MM-dd): the default date of a rate question. */
export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

export function toExchangeRateDto(r: RateView): ExchangeRateDto {
  return {
    currency: r.currency,
    rate: toWireNumber(decimalFromText(r.rate)),
    units: r.units,
    ratePerUnit: toWireNumber(r.ratePerUnit),
    source: r.provider,
    baseCurrency: r.baseCurrency,
    direction: r.direction,
    date: r.date,
    requestedDate: r.requestedDate,
  };
}

/** GET /api/v1/reference/exchange-rates: the caller's market decides the provider (query checked by the contract). */
export function exchangeRatesRoutes(fx: FxRatesApp): Router {
  const r = apiRouter();
  r.get(
    '/api/v1/reference/exchange-rates',
    route(async (req, res) => {
      const caller = callerOf(req);
      const q = req.query as ListQuery;
      const date = q.date ?? todayUtc();
      // The contract's `format: date` checks the shape; the calendar (no 2026-02-30) is checked here.
      if (!isCalendarDate(date)) throw invalidField('date', 'must be a calendar date (yyyy-MM-dd)');
      const rates = await fx.ratesOn(caller.market, date, q.currency);
      const { page, pageSize } = pageRequest(req.query);
      const body: ListResponse = {
        items: rates.slice((page - 1) * pageSize, page * pageSize).map(toExchangeRateDto),
        page,
        pageSize,
        total: rates.length,
        totalPages: Math.ceil(rates.length / pageSize),
      };
      // Rates are shared by every company and imported by a job, not versioned per company: the answer is
      // tagged by its body (read from the store), and unchanged goes out as 304 (docs/decisions/0159).
      answerByBody(req, res, body);
    }),
  );
  return r;
}
