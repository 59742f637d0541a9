import type { Connection } from 'mongoose';
import { CollectionVersions, TenantModel, crossTenant } from '@travel/platform';
import { backfillApiKeyCaps, backfillEmployeeStorage } from './migrations';
import {
  registerModels,
  type ApiKeyDoc,
  type CompanyDoc,
  type CostCenterDoc,
  type DelegationsDoc,
  type DepartmentDoc,
  type EmployeeDoc,
} from './models';

export type { ApiKeyDoc, CompanyDoc, CostCenterDoc, DelegationsDoc, DepartmentDoc, EmployeeDoc } from './models';
export { EMPLOYEES_COLLECTION } from './models';

/**
 * The only way to the employees context's store (docs/decisions/0082). Tenant data is reached through a
 * scope for a `TenantId` (every filter gets the tenant); the few calls across tenants are the named
 * functions below, each marked `crossTenant` with its reason (docs/decisions/0081).
 */
export interface EmployeesRepositories {
  /** The tenants' versions of the collections below: every write through a scope bumps them (0155). */
  versions: CollectionVersions;
  companies: TenantModel<CompanyDoc>;
  employees: TenantModel<EmployeeDoc>;
  apiKeys: TenantModel<ApiKeyDoc>;
  departments: TenantModel<DepartmentDoc>;
  costCenters: TenantModel<CostCenterDoc>;
  /** Approvers' delegations, one document per approver (docs/decisions/0205). */
  delegations: TenantModel<DelegationsDoc>;
  /** The gateway's question: the unrevoked key with this hash, whichever company holds it. */
  findUnrevokedKeyByHash(hash: string): Promise<ApiKeyDoc | null>;
  /** Brings documents written before the storage fields existed up to date (before the indexes). */
  migrate(): Promise<number>;
}

export function employeesRepositories(conn: Connection): EmployeesRepositories {
  const models = registerModels(conn);
  const versions = new CollectionVersions(conn);
  return {
    versions,
    companies: new TenantModel(models.Company, versions),
    employees: new TenantModel(models.Employee, versions),
    apiKeys: new TenantModel(models.ApiKey, versions),
    departments: new TenantModel(models.Department, versions),
    costCenters: new TenantModel(models.CostCenter, versions),
    delegations: new TenantModel(models.Delegations, versions),
    findUnrevokedKeyByHash: (hash) =>
      models.ApiKey.findOne(
        { hash, revokedAt: null },
        null,
        crossTenant('API-key lookup: the key is what identifies the tenant'),
      ).lean<ApiKeyDoc>(),
    migrate: async () => (await backfillEmployeeStorage(models)) + (await backfillApiKeyCaps(models)),
  };
}
