// An approver's delegations (issue 39 §2, docs/decisions/0205): named, listed and withdrawn by the approver
// themself or with ManageCompanyData (the use case checks which). Bodies are checked against the contract.
import type { Router } from 'express';
import type { components, operations } from '@travel/contracts';
import { apiRouter, callerOf, pageRequest, route, type ConditionalGets } from '@travel/platform';
import type { DelegationsApp } from '../app/delegations';
import type { Delegation, DelegationWrite } from '../domain/delegation';
import type { EmployeesRepositories } from '../infra/repositories';

type DelegationBody = components['schemas']['Delegation'];
type DelegationPage = operations['listDelegations']['responses']['200']['content']['application/json'];

export function toDelegationResponse(d: Delegation): DelegationBody {
  return {
    id: d.id,
    delegateId: d.delegateId,
    firstDay: d.firstDay,
    lastDay: d.lastDay,
    reason: d.reason,
    createdAt: d.createdAt.toISOString(),
    createdByEmployeeId: d.createdByEmployeeId,
    withdrawnAt: d.withdrawnAt ? d.withdrawnAt.toISOString() : null,
    withdrawnByEmployeeId: d.withdrawnByEmployeeId,
  };
}

export function delegationRoutes(
  delegations: DelegationsApp,
  reads: ConditionalGets,
  repos: Pick<EmployeesRepositories, 'delegations' | 'employees'>,
): Router {
  const r = apiRouter();
  const path = '/api/v1/employees/:id/delegations';
  r.get(
    path,
    route(async (req, res) => {
      const caller = callerOf(req);
      const page = pageRequest(req.query);
      await reads.answer(req, res, caller, [repos.delegations, repos.employees], async () => {
        const found = await delegations.list(caller, String(req.params.id), page);
        return { ...found, items: found.items.map(toDelegationResponse) } satisfies DelegationPage;
      });
    }),
  );
  r.post(
    path,
    route(async (req, res) => {
      const created = await delegations.create(callerOf(req), String(req.params.id), req.body as DelegationWrite);
      res.status(201).json(toDelegationResponse(created));
    }),
  );
  r.delete(
    `${path}/:delegationId`,
    route(async (req, res) => {
      await delegations.withdraw(callerOf(req), String(req.params.id), String(req.params.delegationId));
      res.status(204).end();
    }),
  );
  return r;
}
