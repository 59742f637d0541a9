// GET / PUT /api/v1/expense-policy (docs/decisions/0203): read by every caller of the company (employees
// need to know the rules), replaced with ManageCompanyData; a GET body is a valid PUT body. Bodies are
// already checked against the contract; read-only fields are already dropped.
import type { Router } from 'express';
import type { components } from '@travel/contracts';
import { apiRouter, callerOf, requirePermission, route, type ConditionalGets } from '@travel/platform';
import { wireNumber } from '../domain/amounts';
import type { ExpensePolicyApp, StoredExpensePolicy } from '../app/expense-policy';
import type { ExpensePolicyInput } from '../domain/expense-policy';
import { EXPENSE_POLICIES_COLLECTION } from '../infra/expense-policy-store';
import { tenantOf } from '@travel/platform';

type Schemas = components['schemas'];
const PATH = '/api/v1/expense-policy';
const orNull = (t: string | null): number | null => (t === null ? null : wireNumber(t));

export function toExpensePolicyBody(p: StoredExpensePolicy): Schemas['ExpensePolicy'] {
  return {
    versions: p.versions.map((v) => ({
      effectiveFrom: v.effectiveFrom,
      rules: v.rules.map((r) => ({
        name: r.name,
        kind: r.kind,
        departmentId: r.departmentId,
        costCenterId: r.costCenterId,
        maxPerItem: orNull(r.maxPerItem),
        maxPerDay: orNull(r.maxPerDay),
        maxPerTrip: orNull(r.maxPerTrip),
        receiptRequiredAbove: orNull(r.receiptRequiredAbove),
        missingReceiptDeclarationAllowed: r.missingReceiptDeclarationAllowed,
        onBreach: r.onBreach,
      })),
    })),
    editedAt: p.editedAt?.toISOString() ?? null,
  };
}

export function expensePolicyRoutes(app: ExpensePolicyApp, reads: ConditionalGets): Router {
  const r = apiRouter();
  r.get(
    PATH,
    route(async (req, res) => {
      const caller = callerOf(req);
      const policies = { collection: EXPENSE_POLICIES_COLLECTION };
      await reads.answer(req, res, caller, [policies], async () =>
        toExpensePolicyBody(await app.get(tenantOf(caller))),
      );
    }),
  );
  r.put(
    PATH,
    route(async (req, res) => {
      const caller = requirePermission(req, 'ManageCompanyData');
      const body = req.body as Schemas['ExpensePolicy'];
      res.json(toExpensePolicyBody(await app.put(caller, body as ExpensePolicyInput)));
    }),
  );
  return r;
}
