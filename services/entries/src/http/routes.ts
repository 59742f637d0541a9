import type { Request, Router } from 'express';
import type { components, operations } from '@travel/contracts';
import { apiRouter, callerOf, route, type ConditionalGets, type ListRequest } from '@travel/platform';
import type { EntriesApp, EntryFilter } from '../app/entries';
import type { AttachmentsApp, UploadedFile } from '../app/attachments';
import type { ExpensesApp } from '../app/expenses';
import type { ReadingsApp } from '../app/readings';
import type { EntryStatusValue } from '../domain/entry';
import { parseEntryPart } from './entry-part';
import { toAttachmentResponse, toEntryResponse, toEntrySummary, toExpenseResponse, toReadingResponse } from './mappers';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listTravelEntries']['parameters']['query']>;

export interface EntriesContext {
  entries: EntriesApp;
  expenses: ExpensesApp;
  attachments: AttachmentsApp;
  readings: ReadingsApp;
  /** The projection of the receipts' readings, versioned like the entries (docs/decisions/0200). */
  readingsCollection: { readonly collection: string };
  /** GETs answered from the entries' collection version (docs/decisions/0155). */
  reads: ConditionalGets;
  /** The collection every answer below is read from (entries hold their expenses). */
  entriesCollection: { readonly collection: string };
}

const id = (req: Request): string => String(req.params.id);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true';

/** Bodies and queries are already checked against the contract; who may do what is decided in the app. */
export function publicRoutes(ctx: EntriesContext): Router {
  const { entries, expenses, attachments, readings, reads, entriesCollection, readingsCollection } = ctx;
  const r = apiRouter();

  r.get(
    '/api/v1/travel-entries',
    route(async (req, res) => {
      const q = req.query as Record<keyof ListQuery, unknown>;
      const filter: EntryFilter = {
        isRequest: flag(q.isRequest),
        employeeId: text(q.employeeId),
        status: q.status === undefined ? undefined : (Number(q.status) as EntryStatusValue),
        dateFrom: text(q.dateFrom),
        dateTo: text(q.dateTo),
      };
      const caller = callerOf(req);
      const read = (page: ListRequest) => entries.list(caller, filter, page);
      await reads.list(req, res, caller, [entriesCollection], read, toEntrySummary);
    }),
  );
  r.post(
    '/api/v1/travel-entries',
    route(async (req, res) => {
      const caller = callerOf(req);
      if (!req.is('multipart/form-data')) {
        const body = req.body as Schemas['TravelEntryCreate'];
        return void res.status(201).json(toEntryResponse(await entries.create(caller, body)));
      }
      // Multipart: the entry as a JSON part `entry`, files as parts `attachments` (errors under `attachments`).
      const body = parseEntryPart((req.body as Record<string, unknown>)?.entry) as Schemas['TravelEntryCreate'];
      const files = (req.files ?? []) as UploadedFile[];
      res.status(201).json(toEntryResponse(await entries.create(caller, body, files)));
    }),
  );
  r.get(
    '/api/v1/travel-entries/:id',
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [entriesCollection], async () =>
        toEntryResponse(await entries.get(caller, id(req))),
      );
    }),
  );
  r.put(
    '/api/v1/travel-entries/:id',
    route(async (req, res) => {
      const body = req.body as Schemas['TravelEntryUpdate'];
      res.json(toEntryResponse(await entries.update(callerOf(req), id(req), body)));
    }),
  );
  r.delete(
    '/api/v1/travel-entries/:id',
    route(async (req, res) => {
      await entries.delete(callerOf(req), id(req));
      res.status(204).end();
    }),
  );

  const expensePath = '/api/v1/travel-entries/:id/expenses';
  const expenseId = (req: Request): string => String(req.params.expenseId);
  r.post(
    expensePath,
    route(async (req, res) => {
      const body = req.body as Schemas['ExpenseCreate'];
      res.status(201).json(toExpenseResponse(await expenses.create(callerOf(req), id(req), body)));
    }),
  );
  r.get(
    `${expensePath}/:expenseId`,
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [entriesCollection], async () =>
        toExpenseResponse(await expenses.get(caller, id(req), expenseId(req))),
      );
    }),
  );
  r.put(
    `${expensePath}/:expenseId`,
    route(async (req, res) => {
      const body = req.body as Schemas['ExpenseUpdate'];
      res.json(toExpenseResponse(await expenses.update(callerOf(req), id(req), expenseId(req), body)));
    }),
  );
  // A missing receipt, declared by the entry's own employee (issue 39 §4, docs/decisions/0204).
  const declarationPath = `${expensePath}/:expenseId/missing-receipt-declaration`;
  r.post(
    declarationPath,
    route(async (req, res) => {
      const body = req.body as Schemas['MissingReceiptDeclarationWrite'];
      res.json(toExpenseResponse(await expenses.declareMissingReceipt(callerOf(req), id(req), expenseId(req), body)));
    }),
  );
  r.delete(
    declarationPath,
    route(async (req, res) => {
      await expenses.withdrawMissingReceipt(callerOf(req), id(req), expenseId(req));
      res.status(204).end();
    }),
  );
  r.delete(
    `${expensePath}/:expenseId`,
    route(async (req, res) => {
      await expenses.delete(callerOf(req), id(req), expenseId(req));
      res.status(204).end();
    }),
  );

  const attachmentPath = '/api/v1/travel-entries/:id/attachments';
  r.post(
    attachmentPath,
    route(async (req, res) => {
      // multer (bounded by the service's upload limits) has put the parts in req.files.
      const files = (req.files ?? []) as UploadedFile[];
      const stored = await attachments.upload(callerOf(req), id(req), files);
      res.status(201).json({ items: stored.map(toAttachmentResponse) });
    }),
  );
  r.get(
    `${attachmentPath}/:attachmentId`,
    route(async (req, res) => {
      const { attachment, stream } = await attachments.download(
        callerOf(req),
        id(req),
        String(req.params.attachmentId),
      );
      res.setHeader('content-type', attachment.contentType);
      res.setHeader('content-length', String(attachment.size));
      res.setHeader('content-disposition', `attachment; filename="${encodeURIComponent(attachment.fileName)}"`);
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        res.once('finish', () => resolve());
        stream.pipe(res);
      });
    }),
  );
  r.get(
    `${attachmentPath}/:attachmentId/reading`,
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [entriesCollection, readingsCollection], async () =>
        toReadingResponse(await readings.get(caller, id(req), String(req.params.attachmentId))),
      );
    }),
  );
  r.delete(
    `${attachmentPath}/:attachmentId`,
    route(async (req, res) => {
      await attachments.delete(callerOf(req), id(req), String(req.params.attachmentId));
      res.status(204).end();
    }),
  );
  return r;
}
