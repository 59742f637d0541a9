import type { Request, Router } from 'express';
import { apiRouter, AppError, callerOf, route } from '@travel/platform';
import type { ExportsApp } from '../app/exports';
import { CSV_TYPE, toCsv, toXlsx, XLSX_TYPE, type ExportFormat } from '../infra/spreadsheet';

/**
 * The file format (docs/decisions/0142): the `format` query (`csv` or `xlsx`) when given, else XLSX when the
 * `Accept` header names its media type, else CSV. An unknown `format` is a validation error.
 */
export function formatOf(req: Request): ExportFormat {
  const q = req.query.format;
  if (q !== undefined) {
    if (q === 'csv' || q === 'xlsx') return q;
    throw new AppError('VALIDATION_FAILED', undefined, { format: ['must be csv or xlsx'] });
  }
  return (req.headers.accept ?? '').includes(XLSX_TYPE) ? 'xlsx' : 'csv';
}

const monthOf = (req: Request): string => (typeof req.query.month === 'string' ? req.query.month : '');

/** `GET /api/v1/payroll-exports?month=YYYY-MM[&format=csv|xlsx]` (issue 23 §2). */
export function exportRoutes(exportsApp: ExportsApp): Router {
  const r = apiRouter();
  r.get(
    '/api/v1/payroll-exports',
    route(async (req, res) => {
      const format = formatOf(req);
      const month = monthOf(req);
      const { summary, entries } = await exportsApp.payroll(callerOf(req), month);
      const name = `payroll-${month}`;
      if (format === 'xlsx') {
        res.setHeader('content-type', XLSX_TYPE);
        res.setHeader('content-disposition', `attachment; filename="${name}.xlsx"`);
        res.send(await toXlsx([summary, entries]));
        return;
      }
      res.setHeader('content-type', CSV_TYPE);
      res.setHeader('content-disposition', `attachment; filename="${name}.csv"`);
      res.send(toCsv(summary));
    }),
  );
  return r;
}
