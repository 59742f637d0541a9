import type { KeyObject } from 'node:crypto';
import { InternalClient, tenantPath } from '@travel/platform';
import type { VehicleDirectory } from '../app/ports';
import type { VehicleFuel } from '../domain/expense';

type Use = { entryId: string; expenseId: string; revision: number };

/**
 * Claims a vehicle on fleet before a Mileage row that names it is stored
 * (`POST /internal/tenants/{tenantId}/vehicles/{id}/claims`, fleet's decision 0032): 200 once the use is
 * recorded, 404 when the vehicle is not the company's. Idempotent; the `vehicle.used` event of the same
 * expense revision confirms it. Fleet unreachable: 503, never a wrong answer.
 */
export class FleetClient implements VehicleDirectory {
  private readonly client: InternalClient;

  constructor(baseUrl: string, signingKey: KeyObject, timeoutMs = 5000) {
    this.client = new InternalClient({ baseUrl, signingKey, caller: 'entries', target: 'fleet', timeoutMs });
  }

  async claim(tenantId: string, vehicleId: string, use: Use): Promise<boolean> {
    const res = await this.client.send('POST', tenantPath(tenantId, 'vehicles', vehicleId, 'claims'), use);
    if (res.status === 404) return false;
    if (res.ok) return true;
    throw this.client.failed(res);
  }

  /** `GET /internal/tenants/{tenantId}/vehicles/{id}`: 200 when the vehicle is the company's, 404 when not. */
  exists(tenantId: string, vehicleId: string): Promise<boolean> {
    return this.client.exists(tenantPath(tenantId, 'vehicles', vehicleId));
  }

  /**
   * `GET /internal/tenants/{tenantId}/vehicles/{id}`: the technical certificate's fuel data a CZ or SK
   * mileage row takes when it gives none (docs/decisions/0133); null when the vehicle is not the company's.
   */
  async fuelData(tenantId: string, vehicleId: string): Promise<VehicleFuel | null> {
    const v = await this.client.getOrNull<Partial<VehicleFuel>>(tenantPath(tenantId, 'vehicles', vehicleId));
    return v && { fuelType: v.fuelType ?? null, fuelConsumption: v.fuelConsumption ?? null };
  }

  /** The vehicle's licence plate for the printed papers (docs/decisions/0137); null when fleet has none. */
  async plate(tenantId: string, vehicleId: string): Promise<string | null> {
    const v = await this.client.getOrNull<{ licensePlate?: string | null }>(
      tenantPath(tenantId, 'vehicles', vehicleId),
    );
    return v?.licensePlate ?? null;
  }

  /** `…/claims/abandon`: the expense of that revision was not stored. A failure leaves the claim to fleet's reconciliation. */
  async abandon(tenantId: string, vehicleId: string, use: Use): Promise<void> {
    try {
      await this.client.send('POST', tenantPath(tenantId, 'vehicles', vehicleId, 'claims', 'abandon'), use);
    } catch {
      /* best effort */
    }
  }
}
