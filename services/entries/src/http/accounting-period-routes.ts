// Closed accounting periods (issue 39 §3, docs/decisions/0207, 0208): `GET /api/v1/accounting-periods`,
// `GET /api/v1/accounting-periods/{period}`, `POST …/{period}/close` and `…/reopen`. Who may close and
// reopen is decided in the app (ManageCompanyData or ManagePayouts).
import type { Request, Router } from 'express';
import type { components } from '@travel/contracts';
import { apiRouter, callerOf, route } from '@travel/platform';
import type { AccountingPeriodsApp, PeriodView } from '../app/accounting-periods';

type Schemas = components['schemas'];

export function toAccountingPeriodResponse(view: PeriodView): Schemas['AccountingPeriod'] {
  return {
    period: view.period,
    state: view.state,
    exportsFrozenAt: view.exportsFrozenAt ? new Date(view.exportsFrozenAt).toISOString() : null,
    history: view.history.map((r) => ({
      action: r.action,
      employeeId: r.employeeId,
      keyIssuedByEmployeeId: r.keyIssuedByEmployeeId ?? null,
      at: new Date(r.at).toISOString(),
      reason: r.reason,
    })),
  };
}

const period = (req: Request): string => String(req.params.period);
const reason = (req: Request): unknown => (req.body as Partial<Schemas['AccountingPeriodAction']> | undefined)?.reason;

export function accountingPeriodRoutes(periods: AccountingPeriodsApp): Router {
  const r = apiRouter();
  r.get(
    '/api/v1/accounting-periods',
    route(async (req, res) => {
      const items = await periods.list(callerOf(req));
      res.json({ items: items.map(toAccountingPeriodResponse) } satisfies Schemas['AccountingPeriodList']);
    }),
  );
  r.get(
    '/api/v1/accounting-periods/:period',
    route(async (req, res) => {
      res.json(toAccountingPeriodResponse(await periods.get(callerOf(req), period(req))));
    }),
  );
  r.post(
    '/api/v1/accounting-periods/:period/close',
    route(async (req, res) => {
      res.json(toAccountingPeriodResponse(await periods.close(callerOf(req), period(req), reason(req))));
    }),
  );
  r.post(
    '/api/v1/accounting-periods/:period/reopen',
    route(async (req, res) => {
      res.json(toAccountingPeriodResponse(await periods.reopen(callerOf(req), period(req), reason(req))));
    }),
  );
  return r;
}
