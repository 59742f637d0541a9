import { notFound, type CallerContext } from '@travel/platform';
import { toCompanyResponse } from '../domain/company';
import type { EmployeesModels } from '../infra/models';

/** The caller's company profile. */
export async function getCompany(models: EmployeesModels, caller: CallerContext) {
  const company = await models.Company.findOne({ tenantId: caller.tenantId }).lean();
  if (!company) throw notFound('company');
  return toCompanyResponse(company);
}
