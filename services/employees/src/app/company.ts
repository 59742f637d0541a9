import {
  AppError,
  notFound,
  tenantOf,
  TransientError,
  withRevisionRetry,
  type CallerContext,
  type Logger,
  type TenantId,
} from '@travel/platform';
import { allowListChange, type AllowListUpdate, type Company } from '../domain/company';
import type { EmployeesRepositories } from '../infra/repositories';

/** The caller's company profile. */
export async function getCompany(repos: EmployeesRepositories, caller: CallerContext): Promise<Company> {
  const company = await repos.companies.of(tenantOf(caller)).findOne().lean();
  if (!company) throw notFound('company');
  return company;
}

/**
 * The profile follows the company's allow-lists in reference-fx (decision 0184): the list written last
 * there wins. A revision-checked write (0170) bumps the companies' version, so conditional GETs of the
 * profile see the change (0155).
 */
export async function applyAllowList(
  repos: EmployeesRepositories,
  logger: Logger,
  tenantId: TenantId,
  update: AllowListUpdate,
): Promise<void> {
  const scope = repos.companies.of(tenantId);
  try {
    await withRevisionRetry('company', async () => {
      const company = await scope.findOne().lean();
      if (!company) {
        // Companies are created before any list can be written: nothing to redeliver for (0184).
        logger.warn({ tenantId, kind: update.kind }, 'allow-list.updated for a company that does not exist; ignored');
        return true;
      }
      const change = allowListChange(company, update);
      if (change) await scope.commit(company, { $set: change });
      return true;
    });
  } catch (err) {
    // Other lists of the company written at the same time each time: redelivered later, not parked.
    if (err instanceof AppError && err.code === 'CONFLICT') throw new TransientError(err.message);
    throw err;
  }
}
