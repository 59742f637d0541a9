import type { EmployeesClient } from '@travel/contracts';
import type { Market } from '@travel/platform';
import type { CompanyMarkets } from '../app/reading-backfill';

/** The company's market from employees (the owner of the company profile); an outage throws. */
export const companyMarkets = (employees: Pick<EmployeesClient, 'marketOf'>): CompanyMarkets => ({
  marketOf: async (tenantId) => ((await employees.marketOf(tenantId)) as Market | null) ?? null,
});
