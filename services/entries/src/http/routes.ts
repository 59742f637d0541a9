import { Router, type Request } from 'express';
import type { components, operations } from '@travel/contracts';
import { callerOf, pageRequest, route } from '@travel/platform';
import type { EntriesApp, EntryFilter } from '../app/entries';
import type { ExpensesApp } from '../app/expenses';
import type { EntryStatusValue } from '../domain/entry';
import { toEntryResponse, toEntrySummary, toExpenseResponse } from './mappers';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listTravelEntries']['parameters']['query']>;

export interface EntriesContext {
  entries: EntriesApp;
  expenses: ExpensesApp;
}

const id = (req: Request): string => String(req.params.id);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true';

/** Bodies and queries are already checked against the contract; who may do what is decided in the app. */
export function publicRoutes({ entries, expenses }: EntriesContext): Router {
  const r = Router();

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
      const page = await entries.list(callerOf(req), filter, pageRequest(req.query));
      res.json({ ...page, items: page.items.map(toEntrySummary) });
    }),
  );
  r.post(
    '/api/v1/travel-entries',
    route(async (req, res) => {
      const body = req.body as Schemas['TravelEntryCreate'];
      res.status(201).json(toEntryResponse(await entries.create(callerOf(req), body)));
    }),
  );
  r.get(
    '/api/v1/travel-entries/:id',
    route(async (req, res) => {
      res.json(toEntryResponse(await entries.get(callerOf(req), id(req))));
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
      const body = req.body as Schemas['ExpenseWrite'];
      res.status(201).json(toExpenseResponse(await expenses.create(callerOf(req), id(req), body)));
    }),
  );
  r.get(
    `${expensePath}/:expenseId`,
    route(async (req, res) => {
      res.json(toExpenseResponse(await expenses.get(callerOf(req), id(req), expenseId(req))));
    }),
  );
  r.put(
    `${expensePath}/:expenseId`,
    route(async (req, res) => {
      const body = req.body as Schemas['ExpenseUpdate'];
      res.json(toExpenseResponse(await expenses.update(callerOf(req), id(req), expenseId(req), body)));
    }),
  );
  r.delete(
    `${expensePath}/:expenseId`,
    route(async (req, res) => {
      await expenses.delete(callerOf(req), id(req), expenseId(req));
      res.status(204).end();
    }),
  );
  return r;
}
