import type { components } from '@travel/contracts';
import type { WorkflowFields } from '../domain/workflow';

type Schemas = components['schemas'];

/** The workflow part of the full entry: approval round, audit log, when it was approved (all read-only). */
export function workflowView(e: WorkflowFields): Pick<Schemas['TravelEntry'], 'approvedAt' | 'approval' | 'auditLog'> {
  return {
    approvedAt: e.approvedAt ? e.approvedAt.toISOString() : null,
    approval: e.approval
      ? {
          phase: e.approval.phase,
          steps: e.approval.steps.map((s) => ({ approverIds: [...s.approverIds] })),
          currentStep: e.approval.currentStep,
        }
      : null,
    auditLog: (e.auditLog ?? []).map((r) => ({
      action: r.action,
      employeeId: r.employeeId,
      at: new Date(r.at).toISOString(),
      comment: r.comment ?? null,
      status: r.status,
      phase: r.phase ?? null,
      step: r.step ?? null,
      keyIssuedByEmployeeId: r.keyIssuedByEmployeeId ?? null,
      onBehalfOfEmployeeId: r.onBehalfOfEmployeeId ?? null,
    })),
  };
}
