import { randomUUID } from 'node:crypto';
import type { Residency } from '@travel/per-diem';
import { AppError, CONTEXT_HEADER, mintContext } from '@travel/platform';
import type { ResidencyDirectory } from '../app/per-diem-calculator';

/**
 * The per-diem calculator asks the employees service for an employee's residency (the SI tax-free cap
 * depends on it), over the internal identity route fleet uses too. An unknown employee is null; an
 * unreachable employees service is 503 (the client retries), never a guessed residency.
 */
export class PerDiemEmployeesClient implements ResidencyDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly contextSecret: string,
    private readonly timeoutMs = 5000,
  ) {}

  async residencyOf(tenantId: string, employeeId: string): Promise<Residency | null> {
    let res: Response;
    try {
      res = await fetch(
        `${this.baseUrl}/internal/tenants/${encodeURIComponent(tenantId)}/employees/${encodeURIComponent(employeeId)}`,
        {
          headers: {
            [CONTEXT_HEADER]: mintContext(
              { kind: 'service', service: 'entries', requestId: randomUUID() },
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
    if (!res.ok) throw new AppError('SERVICE_UNAVAILABLE', `The employees service answered ${res.status}; try again.`);
    const body = (await res.json()) as { residency?: Residency };
    return body.residency ?? 'Resident';
  }
}
