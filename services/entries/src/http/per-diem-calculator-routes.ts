import type { Router } from 'express';
import type { components, operations } from '@travel/contracts';
import { toWireAmount, type Decimal } from '@travel/money';
import { apiRouter, AppError, callerOf, route } from '@travel/platform';
import type { CalculatedRow, PerDiemCalculator } from '../app/per-diem-calculator';
import { toReportedFigures } from './per-diem-mappers';

type CalculateRequest = components['schemas']['PerDiemCalculationRequest'];
type CalculateResponse = operations['calculatePerDiems']['responses']['200']['content']['application/json'];
type RowDto = components['schemas']['PerDiemCalculationRow'];

const wire = (value: Decimal | null, currency: string | null): number | null =>
  value === null || currency === null ? null : toWireAmount(value, currency);

function toRowDto(row: CalculatedRow, baseCurrency: string): RowDto {
  return {
    ...row,
    amount: wire(row.amount, row.currencyCode),
    amountInBaseCurrency: wire(row.amountInBaseCurrency, baseCurrency),
    reported: toReportedFigures(row.reported),
  };
}

/** Removed operations (SPEC, change log 2026-05-23): 410 Gone, the replacement named in `detail`. */
const gone = (removed: string, replacement: string) =>
  route(async () => {
    throw new AppError('GONE', `${removed} was removed on 2026-05-23; use ${replacement}.`);
  });

/** POST /api/v1/utilities/per-diems/calculate and the two per-diem operations it replaced. */
export function perDiemCalculatorRoutes(calculator: PerDiemCalculator): Router {
  const r = apiRouter();
  r.post(
    '/api/v1/utilities/per-diems/calculate',
    route(async (req, res) => {
      const caller = callerOf(req);
      const body = req.body as CalculateRequest;
      const result = await calculator.calculate(caller, body);
      const answer: CalculateResponse = {
        items: result.items.map((row) => toRowDto(row, result.currencyCode)),
        total: wire(result.total, result.currencyCode),
        currencyCode: result.currencyCode,
        complete: result.complete,
      };
      res.json(answer);
    }),
  );
  r.post(
    '/api/v1/travel-entries/:id/per-diems/compute',
    gone(
      'POST /api/v1/travel-entries/{id}/per-diems/compute',
      'POST /api/v1/travel-entries/{id}/per-diems/from-itinerary',
    ),
  );
  r.post(
    '/api/v1/per-diems/calculate-simple',
    gone('POST /api/v1/per-diems/calculate-simple', 'POST /api/v1/utilities/per-diems/calculate'),
  );
  return r;
}
