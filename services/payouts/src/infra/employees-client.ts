import type { KeyObject } from 'node:crypto';
import { InternalClient, tenantPath } from '@travel/platform';
import type { Payee, PayeeDirectory } from '../app/ports';

/**
 * The employees context's payee route: the company's name and the payees' bank data. Personal data: used
 * only to build the payment file, never stored here, logged or put in an event.
 */
export class EmployeesClient implements PayeeDirectory {
  private readonly client: InternalClient;

  constructor(baseUrl: string, signingKey: KeyObject) {
    this.client = new InternalClient({
      baseUrl,
      signingKey,
      caller: 'payouts',
      target: 'employees',
      timeoutMs: 30_000,
    });
  }

  payees(tenantId: string, employeeIds: readonly string[]) {
    const query = new URLSearchParams({ ids: employeeIds.join(',') });
    return this.client.getJson<{ company: { name: string }; payees: Payee[] }>(
      `${tenantPath(tenantId, 'payees')}?${query}`,
    );
  }
}
