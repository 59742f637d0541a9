import { randomUUID } from 'node:crypto';
import { AppError, CONTEXT_HEADER, mintContext } from '@travel/platform';
import type { EmployeeContact, EmployeeDirectory } from '../app/vehicles';

/**
 * Asks the employees service whether an employee belongs to a company (docs/decisions/0031): a small
 * synchronous internal call, so a vehicle can name an employee created a moment ago. An unreachable
 * employees service is 503 (the client retries), never a wrong answer.
 */
export class EmployeesClient implements EmployeeDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly contextSecret: string,
    private readonly timeoutMs = 5000,
  ) {}

  async exists(tenantId: string, employeeId: string): Promise<boolean> {
    return (await this.get(tenantId, employeeId, '')) !== null;
  }

  async contact(tenantId: string, employeeId: string): Promise<EmployeeContact | null> {
    return (await this.get(tenantId, employeeId, '/contact')) as EmployeeContact | null;
  }

  private async get(tenantId: string, employeeId: string, suffix: string): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(
        `${this.baseUrl}/internal/tenants/${encodeURIComponent(tenantId)}/employees/${encodeURIComponent(employeeId)}${suffix}`,
        {
          headers: {
            [CONTEXT_HEADER]: mintContext(
              { kind: 'service', service: 'fleet', requestId: randomUUID() },
              this.contextSecret,
            ),
          },
          signal: AbortSignal.timeout(this.timeoutMs),
        },
      );
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The employees service did not answer; try again.');
    }
    if (res.status === 404) return null;
    if (res.ok) return res.json();
    throw new AppError('SERVICE_UNAVAILABLE', `The employees service answered ${res.status}; try again.`);
  }
}
