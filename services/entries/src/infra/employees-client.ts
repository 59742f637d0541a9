import { randomUUID } from 'node:crypto';
import { AppError, CONTEXT_HEADER, mintContext } from '@travel/platform';
import type { EmployeeDirectory } from '../app/ports';

/**
 * Asks the employees service about an entry's employee (docs/decisions/0045), like fleet does for a
 * vehicle's owner: whether they belong to the company, and which cost centers they may charge. An
 * unreachable employees service is 503 (the client retries), never a wrong answer.
 */
export class EmployeesClient implements EmployeeDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly contextSecret: string,
    private readonly timeoutMs = 5000,
  ) {}

  private async get(path: string): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl}/internal${path}`, {
        headers: {
          [CONTEXT_HEADER]: mintContext(
            { kind: 'service', service: 'entries', requestId: randomUUID() },
            this.contextSecret,
          ),
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The employees service did not answer; try again.');
    }
  }

  private employeePath(tenantId: string, employeeId: string): string {
    return `/tenants/${encodeURIComponent(tenantId)}/employees/${encodeURIComponent(employeeId)}`;
  }

  async exists(tenantId: string, employeeId: string): Promise<boolean> {
    const res = await this.get(this.employeePath(tenantId, employeeId));
    if (res.status === 404) return false;
    if (res.ok) return true;
    throw new AppError('SERVICE_UNAVAILABLE', `The employees service answered ${res.status}; try again.`);
  }

  async chargeable(tenantId: string, employeeId: string, costCenterIds: readonly string[]): Promise<string[] | null> {
    const query = new URLSearchParams({ ids: costCenterIds.join(',') });
    const res = await this.get(`${this.employeePath(tenantId, employeeId)}/chargeable-cost-centers?${query}`);
    if (res.status === 404) return null;
    if (!res.ok) throw new AppError('SERVICE_UNAVAILABLE', `The employees service answered ${res.status}; try again.`);
    return ((await res.json()) as { chargeable: string[] }).chargeable;
  }
}
