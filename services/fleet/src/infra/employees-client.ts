import type { KeyObject } from 'node:crypto';
import { InternalClient, tenantPath } from '@travel/platform';
import type { EmployeeContact, EmployeeDirectory } from '../app/vehicles';

/**
 * Asks the employees service whether an employee belongs to a company (docs/decisions/0031): a small
 * synchronous internal call, so a vehicle can name an employee created a moment ago. An unreachable
 * employees service is 503 (the client retries), never a wrong answer.
 */
export class EmployeesClient implements EmployeeDirectory {
  private readonly client: InternalClient;

  constructor(baseUrl: string, signingKey: KeyObject, timeoutMs = 5000) {
    this.client = new InternalClient({ baseUrl, signingKey, caller: 'fleet', target: 'employees', timeoutMs });
  }

  exists(tenantId: string, employeeId: string): Promise<boolean> {
    return this.client.exists(tenantPath(tenantId, 'employees', employeeId));
  }

  contact(tenantId: string, employeeId: string): Promise<EmployeeContact | null> {
    return this.client.getOrNull<EmployeeContact>(tenantPath(tenantId, 'employees', employeeId, 'contact'));
  }
}
