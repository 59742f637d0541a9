import type { Market } from '@travel/platform';
import { hashApiKey, looksLikeApiKey } from '../domain/api-key';
import type { EmployeesModels } from '../infra/models';

export interface ResolvedKey {
  tenantId: string;
  market: Market;
  baseCurrency: string;
  employeeId: string;
  apiKeyId: string;
  permissions: string[];
}

/**
 * The gateway's question, answered by the context that owns keys: which caller is this key? A revoked
 * key, an inactive or archived employee, or an unknown key all answer `undefined` (the gateway says 401).
 */
export async function resolveApiKey(models: EmployeesModels, key: string): Promise<ResolvedKey | undefined> {
  if (!looksLikeApiKey(key)) return undefined;
  const row = await models.ApiKey.findOne({ hash: hashApiKey(key), revokedAt: null }).lean();
  if (!row) return undefined;
  const [employee, company] = await Promise.all([
    models.Employee.findOne({ _id: row.employeeId, tenantId: row.tenantId }).lean(),
    models.Company.findOne({ tenantId: row.tenantId }).lean(),
  ]);
  if (!employee || !company || employee.status !== 'Active' || employee.isArchived) return undefined;
  return {
    tenantId: row.tenantId,
    market: company.market as Market,
    baseCurrency: company.baseCurrency,
    employeeId: employee._id,
    apiKeyId: row._id,
    permissions: employee.permissions,
  };
}
