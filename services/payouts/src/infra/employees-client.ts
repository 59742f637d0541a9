import type { Payee, PayeeDirectory } from '../app/ports';
import { callService } from './service-call';

/**
 * The employees context's payee route: the company's name and the payees' bank data. Personal data: used
 * only to build the payment file, never stored here, logged or put in an event.
 */
export class EmployeesClient implements PayeeDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly contextSecret: string,
  ) {}

  async payees(tenantId: string, employeeIds: readonly string[]) {
    const query = new URLSearchParams({ ids: employeeIds.join(',') });
    const res = await callService(
      'employees',
      `${this.baseUrl}/internal/tenants/${encodeURIComponent(tenantId)}/payees?${query}`,
      this.contextSecret,
    );
    return (await res.json()) as { company: { name: string }; payees: Payee[] };
  }
}
