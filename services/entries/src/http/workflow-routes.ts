import type { Router } from 'express';
import type { components } from '@travel/contracts';
import { apiRouter, callerOf, requirePermission, route, type ConditionalGets } from '@travel/platform';
import type { WorkflowApp } from '../app/workflow';
import { WORKFLOW_OPERATIONS, type ApprovalWorkflow } from '../domain/workflow';
import { toEntryResponse } from './mappers';

type Schemas = components['schemas'];

const MANAGE_COMPANY_DATA = 'ManageCompanyData';

const toWorkflowResponse = (w: ApprovalWorkflow): Schemas['ApprovalWorkflow'] => ({
  settlementSteps: w.settlementSteps.map((s) => ({ approverIds: [...s.approverIds] })),
  tripApprovalSteps: w.tripApprovalSteps.map((s) => ({ approverIds: [...s.approverIds] })),
  fallbackApproverIds: [...w.fallbackApproverIds],
  editedAt: w.editedAt ? w.editedAt.toISOString() : null,
});

/** GET / PUT /approval-workflow and the five workflow operations on an entry (bodies checked by the contract). */
export function workflowRoutes(
  workflow: WorkflowApp,
  reads: ConditionalGets,
  workflows: { readonly collection: string },
): Router {
  const r = apiRouter();
  r.get(
    '/api/v1/approval-workflow',
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [workflows], async () =>
        toWorkflowResponse(await workflow.workflow(caller)),
      );
    }),
  );
  r.put(
    '/api/v1/approval-workflow',
    route(async (req, res) => {
      const caller = requirePermission(req, MANAGE_COMPANY_DATA);
      const body = req.body as Schemas['ApprovalWorkflowWrite'];
      res.json(toWorkflowResponse(await workflow.replaceWorkflow(caller, body)));
    }),
  );
  for (const operation of WORKFLOW_OPERATIONS) {
    r.post(
      `/api/v1/travel-entries/:id/${operation}`,
      route(async (req, res) => {
        const body = (req.body ?? {}) as Schemas['WorkflowOperationBody'];
        const comment = body.comment?.trim() || null;
        res.json(toEntryResponse(await workflow.operate(callerOf(req), String(req.params.id), operation, comment)));
      }),
    );
  }
  return r;
}
