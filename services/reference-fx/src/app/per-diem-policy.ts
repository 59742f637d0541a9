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
  constructor(
    private readonly store: PerDiemPolicyStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The company's policy; without one, no versions (every row pays the statutory amount). */
  async get(tenantId: TenantId): Promise<StoredPolicy> {
    const doc = await this.store.get(tenantId);
    // A version stored before per-country rates existed (docs/decisions/0188) has none.
    return doc
      ? {
          sector: doc.sector,
          versions: doc.versions.map((v) => ({ ...v, foreignRates: v.foreignRates ?? [] })),
          editedAt: doc.editedAt,
        }
      : { ...NO_POLICY, editedAt: null };
  }

  async getFor(caller: CallerContext): Promise<StoredPolicy> {
    return this.get(tenantOf(caller));
  }

  /** Replaces the policy. A PUT that changes nothing is a no-op: same editedAt, no event (decision 0035). */
  async put(caller: CallerContext, body: PerDiemPolicyWrite): Promise<StoredPolicy> {
    const tenantId = tenantOf(caller);
    const current = await this.get(tenantId);
    // A per-country rate new or changed by this write is confirmed by the caller (the employee the write's
    // audit names, `editedByEmployeeId`), now; one sent unchanged keeps who confirmed it and when.
    const { policy, errors } = normalizePolicy(caller.market, body, {
      confirmedBy: caller.employeeId,
      now: this.clock().toISOString(),
      current,
    });
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    if (current.editedAt && samePolicy(current, policy)) return current;
    const doc = await this.store.put(tenantId, policy, caller.employeeId);
    return { sector: doc.sector, versions: doc.versions, editedAt: doc.editedAt };
  }
}
