import { Schema, type Connection, type Model } from 'mongoose';
import { tenantScoped } from '@travel/platform';
import type { ApprovalStep } from '../domain/workflow';

/** The tenant's approval workflow: one document per tenant (`_id` = tenantId). */
export interface ApprovalWorkflowDoc {
  _id: string;
  tenantId: string;
  settlementSteps: ApprovalStep[];
  tripApprovalSteps: ApprovalStep[];
  /** Absent on workflows stored before fallback approvers (docs/decisions/0105): none named. */
  fallbackApproverIds?: string[];
  editedAt: Date;
}

export interface WorkflowModels {
  ApprovalWorkflow: Model<ApprovalWorkflowDoc>;
}

/**
 * What the workflow stores on an entry document (spread into the entry schema): the approval round copied
 * at submission, the audit log, when it was approved, and a pending entry-number claim
 * (docs/decisions/0066, 0067). Plain objects: they are written whole with the entry's revision check.
 */
export const workflowEntrySchemaFields = {
  // Who created the entry (segregation of duties, docs/decisions/0105); null on older entries.
  createdByEmployeeId: { type: String, default: null },
  approval: { type: Object, default: null },
  auditLog: { type: Array, default: [] },
  approvedAt: { type: Date, default: null },
  numberClaim: { type: Object, default: null },
};

export function registerWorkflowModels(conn: Connection): WorkflowModels {
  if (conn.models.ApprovalWorkflow)
    return { ApprovalWorkflow: conn.models.ApprovalWorkflow as Model<ApprovalWorkflowDoc> };
  const step = new Schema({ approverIds: { type: [String], default: [] } }, { _id: false });
  const workflow = new Schema<ApprovalWorkflowDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      settlementSteps: { type: [step], default: [] },
      tripApprovalSteps: { type: [step], default: [] },
      fallbackApproverIds: { type: [String], default: [] },
      editedAt: { type: Date, required: true },
    },
    { collection: 'approval_workflows', versionKey: false },
  );
  // Every query names its tenant (docs/decisions/0081).
  workflow.plugin(tenantScoped);
  return { ApprovalWorkflow: conn.model<ApprovalWorkflowDoc>('ApprovalWorkflow', workflow) };
}
