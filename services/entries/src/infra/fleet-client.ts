import { randomUUID } from 'node:crypto';
import { AppError, CONTEXT_HEADER, mintContext } from '@travel/platform';
import type { VehicleDirectory } from '../app/ports';

type Use = { entryId: string; expenseId: string; revision: number };

/**
 * Claims a vehicle on fleet before a Mileage row that names it is stored
 * (`POST /internal/tenants/{tenantId}/vehicles/{id}/claims`, fleet's decision 0032): 200 once the use is
 * recorded, 404 when the vehicle is not the company's. Idempotent; the `vehicle.used` event of the same
 * expense revision confirms it. Fleet unreachable: 503, never a wrong answer.
 */
export class FleetClient implements VehicleDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly contextSecret: string,
    private readonly timeoutMs = 5000,
  ) {}

  private post(tenantId: string, vehicleId: string, suffix: string, use: Use): Promise<Response> {
    return fetch(
      `${this.baseUrl}/internal/tenants/${encodeURIComponent(tenantId)}/vehicles/${encodeURIComponent(vehicleId)}/claims${suffix}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [CONTEXT_HEADER]: mintContext(
            { kind: 'service', service: 'entries', requestId: randomUUID() },
            this.contextSecret,
          ),
        },
        body: JSON.stringify(use),
        signal: AbortSignal.timeout(this.timeoutMs),
      },
    );
  }

  async claim(tenantId: string, vehicleId: string, use: Use): Promise<boolean> {
    let res: Response;
    try {
      res = await this.post(tenantId, vehicleId, '', use);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The fleet service did not answer; try again.');
    }
    if (res.status === 404) return false;
    if (res.ok) return true;
    throw new AppError('SERVICE_UNAVAILABLE', `The fleet service answered ${res.status}; try again.`);
  }

  /** `GET /internal/tenants/{tenantId}/vehicles/{id}`: 200 when the vehicle is the company's, 404 when not. */
  async exists(tenantId: string, vehicleId: string): Promise<boolean> {
    let res: Response;
    try {
      res = await fetch(
        `${this.baseUrl}/internal/tenants/${encodeURIComponent(tenantId)}/vehicles/${encodeURIComponent(vehicleId)}`,
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
      throw new AppError('SERVICE_UNAVAILABLE', 'The fleet service did not answer; try again.');
    }
    if (res.status === 404) return false;
    if (res.ok) return true;
    throw new AppError('SERVICE_UNAVAILABLE', `The fleet service answered ${res.status}; try again.`);
  }

  /** `…/claims/abandon`: the expense of that revision was not stored. A failure leaves the claim to fleet's reconciliation. */
  async abandon(tenantId: string, vehicleId: string, use: Use): Promise<void> {
    try {
      await this.post(tenantId, vehicleId, '/abandon', use);
    } catch {
      /* best effort */
    }
  }
}
