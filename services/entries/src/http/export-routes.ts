import type { Request, Response, Router } from 'express';
import { apiRouter, AppError, callerOf, requirePermission, route, type ConditionalGets } from '@travel/platform';
import type { ExportsApp } from '../app/exports';
import type { JournalApp } from '../app/journal';
import { JOURNAL_ACCOUNTS_COLLECTION } from '../infra/journal-accounts-store';
import { CSV_TYPE, toCsv, toXlsx, XLSX_TYPE, type ExportFormat, type Sheet } from '../infra/spreadsheet';
import { toJournalAccountsResponse } from './mappers';

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

const query = (req: Request, name: string): string => (typeof req.query[name] === 'string' ? req.query[name] : '');

/** Sends sheets as the asked format: every sheet in XLSX, the first in CSV. */
async function sendSheets(req: Request, res: Response, name: string, sheets: Sheet[]): Promise<void> {
  const xlsx = formatOf(req) === 'xlsx';
  res.setHeader('content-type', xlsx ? XLSX_TYPE : CSV_TYPE);
  res.setHeader('content-disposition', `attachment; filename="${name}.${xlsx ? 'xlsx' : 'csv'}"`);
  res.send(xlsx ? await toXlsx(sheets) : toCsv(sheets[0]!));
}

/**
 * `GET /api/v1/payroll-exports?month=YYYY-MM` (issue 23 §2), `GET /api/v1/journal-exports?from=&to=` and
 * `GET|PUT /api/v1/journal-accounts` (§3); `format=csv|xlsx` on the exports.
 */
export function exportRoutes(exportsApp: ExportsApp, journal: JournalApp, reads: ConditionalGets): Router {
  const r = apiRouter();
  r.get(
    '/api/v1/payroll-exports',
    route(async (req, res) => {
      formatOf(req); // an unknown format is refused before anything is read
      const month = query(req, 'month');
      const { summary, entries } = await exportsApp.payroll(callerOf(req), month);
      await sendSheets(req, res, `payroll-${month}`, [summary, entries]);
    }),
  );
  r.get(
    '/api/v1/journal-exports',
    route(async (req, res) => {
      formatOf(req);
      const [from, to] = [query(req, 'from'), query(req, 'to')];
      const sheet = await journal.journal(callerOf(req), from, to);
      await sendSheets(req, res, `journal-${from}-${to}`, [sheet]);
    }),
  );
  r.get(
    '/api/v1/journal-accounts',
    route(async (req, res) => {
      // From the collection's version (0155, 0159); the exports themselves are files made per request.
      const caller = callerOf(req);
      const accounts = { collection: JOURNAL_ACCOUNTS_COLLECTION };
      await reads.answer(req, res, caller, [accounts], async () =>
        toJournalAccountsResponse(await journal.accounts(caller)),
      );
    }),
  );
  r.put(
    '/api/v1/journal-accounts',
    route(async (req, res) => {
      res.json(
        toJournalAccountsResponse(await journal.putAccounts(requirePermission(req, 'ManageCompanyData'), req.body)),
      );
    }),
  );
  return r;
}
