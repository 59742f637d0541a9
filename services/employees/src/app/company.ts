import { notFound, tenantOf, type CallerContext } from '@travel/platform';
import type { Company } from '../domain/company';
import type { EmployeesRepositories } from '../infra/repositories';

/** The caller's company profile. */
export async function getCompany(repos: EmployeesRepositories, caller: CallerContext): Promise<Company> {
  const company = await repos.companies.of(tenantOf(caller)).findOne().lean();
  if (!company) throw notFound('company');
  return company;
}
