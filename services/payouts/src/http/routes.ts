import type { Request, Router } from 'express';
import {
  apiRouter,
  AppError,
  callerOf,
  requirePermission,
  route,
  type CallerContext,
  type ConditionalGets,
} from '@travel/platform';
import type { components } from '@travel/contracts';
import type { BankFilesApp } from '../app/bank-files';
import type { BatchesApp } from '../app/batches';
import type { ReadyApp } from '../app/ready';
import { toBatchResponse, toReadyResponse } from './mappers';

type Schemas = components['schemas'];

// Who may do what (docs/decisions/0077): the company permission flag `ManagePayouts` (CompanyAdmin has it)
// creates and deletes batches, downloads payment files (which carry the payees' bank data: paying
// people is what the flag is for) and marks batches sent to the bank (docs/decisions/0191). Reading the ready list and the history also suits auditors and
// accountants: `ManagePayouts`, `ReadAllEntries` or `EditAllEntries` (every employee's entries and amounts).
export const MANAGE_PAYOUTS = 'ManagePayouts';
const READERS = [MANAGE_PAYOUTS, 'ReadAllEntries', 'EditAllEntries'];

function reader(req: Request): CallerContext {
  const caller = callerOf(req);
  if (!READERS.some((p) => caller.permissions.includes(p)))
    throw new AppError('FORBIDDEN', `This operation requires one of the ${READERS.join(', ')} permissions.`);
  return caller;
}

const id = (req: Request): string => String(req.params.id);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export interface PayoutsContext {
  ready: ReadyApp;
  batches: BatchesApp;
  /** The bank payment file and the mark "sent to the bank". */
  bankFiles: BankFilesApp;
  /** GETs answered from the collections' versions (docs/decisions/0155, 0159). */
  reads: ConditionalGets;
  collections: Record<'ready' | 'batches', { readonly collection: string }>;
}

export function publicRoutes({ ready, batches, bankFiles, reads, collections: c }: PayoutsContext): Router {
  const r = apiRouter();
  r.get(
    '/api/v1/payouts/ready',
    route(async (req, res) => {
      const caller = reader(req);
      await reads.list(req, res, caller, [c.ready], (page) => ready.list(caller.tenantId, page), toReadyResponse);
    }),
  );
  r.get(
    '/api/v1/payouts',
    route(async (req, res) => {
      const caller = reader(req);
      await reads.list(req, res, caller, [c.batches], (page) => batches.list(caller, page), toBatchResponse);
    }),
  );
  r.post(
    '/api/v1/payouts',
    route(async (req, res) => {
      const body = req.body as Schemas['PayoutBatchCreate'];
      const batch = await batches.create(requirePermission(req, MANAGE_PAYOUTS), body);
      res.status(201).json(toBatchResponse(batch));
    }),
  );
  r.get(
    '/api/v1/payouts/:id',
    route(async (req, res) => {
      const caller = reader(req);
      await reads.answer(req, res, caller, [c.batches], async () =>
        toBatchResponse(await batches.get(caller, id(req))),
      );
    }),
  );
  r.delete(
    '/api/v1/payouts/:id',
    route(async (req, res) => {
      await batches.delete(requirePermission(req, MANAGE_PAYOUTS), id(req));
      res.status(204).end();
    }),
  );
  r.get(
    '/api/v1/payouts/:id/payment-file',
    route(async (req, res) => {
      const { xml, batch } = await bankFiles.paymentFile(requirePermission(req, MANAGE_PAYOUTS), id(req), {
        debtorIban: text(req.query.debtorIban) ?? '',
        debtorBic: text(req.query.debtorBic),
        executionDate: text(req.query.executionDate),
      });
      res.setHeader('content-type', 'application/xml; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="payout-${batch._id}.pain.001.001.09.xml"`);
      res.send(xml);
    }),
  );
  // The write that makes a batch final; the download above changes nothing (docs/decisions/0191).
  r.post(
    '/api/v1/payouts/:id/sent-to-bank',
    route(async (req, res) => {
      const batch = await bankFiles.markSentToBank(requirePermission(req, MANAGE_PAYOUTS), id(req));
      res.status(200).json(toBatchResponse(batch));
    }),
  );
  return r;
}
