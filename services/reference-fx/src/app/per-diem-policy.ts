// The company per-diem policy (issue 22 §2, docs/decisions/0127-0129): read by every caller of the company
// and by entries (internal), replaced as a whole by a caller with ManageCompanyData (checked by the route).
import { AppError, tenantOf, type CallerContext, type TenantId } from '@travel/platform';
import { normalizePolicy, samePolicy, type PerDiemPolicyWrite } from '../domain/per-diem-policy';
import type { PerDiemPolicyStore } from '../infra/per-diem-policy-store';
import { NO_POLICY, type PerDiemPolicy } from '@travel/contracts';

export interface StoredPolicy extends PerDiemPolicy {
  editedAt: Date | null;
}

export class PerDiemPolicyApp {
  constructor(private readonly store: PerDiemPolicyStore) {}

  /** The company's policy; without one, no versions (every row pays the statutory amount). */
  async get(tenantId: TenantId): Promise<StoredPolicy> {
    const doc = await this.store.get(tenantId);
    return doc
      ? { sector: doc.sector, versions: doc.versions, editedAt: doc.editedAt }
      : { ...NO_POLICY, editedAt: null };
  }

  async getFor(caller: CallerContext): Promise<StoredPolicy> {
    return this.get(tenantOf(caller));
  }

  /** Replaces the policy. A PUT that changes nothing is a no-op: same editedAt, no event (decision 0035). */
  async put(caller: CallerContext, body: PerDiemPolicyWrite): Promise<StoredPolicy> {
    const { policy, errors } = normalizePolicy(caller.market, body);
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    const tenantId = tenantOf(caller);
    const current = await this.get(tenantId);
    if (current.editedAt && samePolicy(current, policy)) return current;
    const doc = await this.store.put(tenantId, policy, caller.employeeId);
    return { sector: doc.sector, versions: doc.versions, editedAt: doc.editedAt };
  }
}
