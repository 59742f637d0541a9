import type { KeyObject } from 'node:crypto';
import { AppError, InternalClient, tenantPath } from '@travel/platform';
import type { Residency } from '@travel/per-diem';
import type { EmployeeDirectory } from '../app/ports';
import type { CompanyAndNames } from '../app/documents';
import type { PerDiemProfile, PerDiemProfiles } from '../app/per-diem-calculator';
import { isUuid } from '../domain/ids';

/**
 * Asks the employees service about an entry's employee (docs/decisions/0045), like fleet does for a
 * vehicle's owner: whether they belong to the company, which cost centers they may charge, and their
 * per-diem profile (the SI tax-free cap depends on the residency, the SK foreign rates on the
 * road-transport flag). An unreachable employees service is 503 (the client retries), never a wrong or
 * guessed answer.
 */
export class EmployeesClient implements EmployeeDirectory, PerDiemProfiles {
  private readonly client: InternalClient;

  constructor(baseUrl: string, signingKey: KeyObject, timeoutMs = 5000) {
    this.client = new InternalClient({ baseUrl, signingKey, caller: 'entries', target: 'employees', timeoutMs });
  }

  exists(tenantId: string, employeeId: string): Promise<boolean> {
    return this.client.exists(tenantPath(tenantId, 'employees', employeeId));
  }

  async chargeable(tenantId: string, employeeId: string, costCenterIds: readonly string[]): Promise<string[] | null> {
    const query = new URLSearchParams({ ids: costCenterIds.join(',') });
    const body = await this.client.getOrNull<{ chargeable: string[] }>(
      `${tenantPath(tenantId, 'employees', employeeId, 'chargeable-cost-centers')}?${query}`,
    );
    return body?.chargeable ?? null;
  }

  async accountOwners(tenantId: string): Promise<string[]> {
    const body = await this.client.getOrNull<{ employeeIds: string[] }>(tenantPath(tenantId, 'account-owners'));
    return body?.employeeIds ?? [];
  }

  async perDiemProfileOf(tenantId: string, employeeId: string): Promise<PerDiemProfile | null> {
    // Not an id at all: no such employee (employees would refuse the path with 400, read as a 503).
    if (!isUuid(employeeId)) return null;
    const body = await this.client.getOrNull<{ residency?: Residency; mobileRoadTransportWorker?: boolean }>(
      tenantPath(tenantId, 'employees', employeeId),
    );
    if (body === null) return null;
    return {
      residency: body.residency ?? 'Resident',
      mobileRoadTransportWorker: body.mobileRoadTransportWorker ?? false,
    };
  }

  /** The company's details and people's names for an entry's printed papers (docs/decisions/0137). */
  async documentParties(tenantId: string, employeeIds: readonly string[]): Promise<CompanyAndNames> {
    const query = new URLSearchParams({ ids: employeeIds.join(',') });
    const body = await this.client.getOrNull<CompanyAndNames>(`${tenantPath(tenantId, 'document-parties')}?${query}`);
    if (body === null) throw new AppError('SERVICE_UNAVAILABLE', 'The company is not known to the employees service.');
    return body;
  }
}
