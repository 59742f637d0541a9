// The fleet context's internal routes (services/fleet/src/http/internal.ts) and the one client entries
// calls them with: a vehicle's use claimed before a Mileage row naming it is stored (decision 0032), the
// vehicle's fuel data (0133) and plate (0137).
import { tenantPath, type InternalTransport } from './transport';

/** One expense revision's use of a vehicle: the body of a claim and of its abandon. */
export interface VehicleUse {
  entryId: string;
  expenseId: string;
  revision: number;
}

/** `GET …/vehicles/{id}`: the vehicle of the company, without recording a use. */
export interface InternalVehicle {
  id: string;
  isArchived: boolean;
  /** Petrol, Diesel, Lpg, Cng, Electric, PlugInHybrid, Hybrid, or null. */
  fuelType: string | null;
  /** Per 100 km (litres; kWh for Electric), decimal text; null when none is recorded. */
  fuelConsumption: string | null;
  licensePlate: string | null;
}

/**
 * fleet as entries asks it. 404 is "not the company's vehicle" (false, null); fleet unreachable is 503,
 * never a wrong answer. Claims are idempotent; the `vehicle.used` event of the same expense revision
 * confirms them.
 */
export class FleetClient {
  constructor(private readonly transport: InternalTransport) {}

  /** Claims the vehicle for one expense revision: true once the use is recorded, false when not the company's. */
  async claim(tenantId: string, vehicleId: string, use: VehicleUse): Promise<boolean> {
    const res = await this.transport.send('POST', tenantPath(tenantId, 'vehicles', vehicleId, 'claims'), use);
    if (res.status === 404) return false;
    if (res.ok) return true;
    throw this.transport.failed(res);
  }

  /** Whether the vehicle is the company's (200) or not (404), recording nothing. */
  exists(tenantId: string, vehicleId: string): Promise<boolean> {
    return this.transport.exists(tenantPath(tenantId, 'vehicles', vehicleId));
  }

  /** The vehicle, recording nothing; null when it is not the company's. */
  vehicle(tenantId: string, vehicleId: string): Promise<Partial<InternalVehicle> | null> {
    return this.transport.getOrNull<Partial<InternalVehicle>>(tenantPath(tenantId, 'vehicles', vehicleId));
  }

  /** The technical certificate's fuel data; null when the vehicle is not the company's. */
  async fuelData(
    tenantId: string,
    vehicleId: string,
  ): Promise<Pick<InternalVehicle, 'fuelType' | 'fuelConsumption'> | null> {
    const v = await this.vehicle(tenantId, vehicleId);
    return v && { fuelType: v.fuelType ?? null, fuelConsumption: v.fuelConsumption ?? null };
  }

  /** The vehicle's licence plate; null when fleet has none. */
  async plate(tenantId: string, vehicleId: string): Promise<string | null> {
    return (await this.vehicle(tenantId, vehicleId))?.licensePlate ?? null;
  }

  /** Gives back a claim whose expense was then not stored. Best effort: a failure leaves it to fleet's reconciliation. */
  async abandon(tenantId: string, vehicleId: string, use: VehicleUse): Promise<void> {
    try {
      await this.transport.send('POST', tenantPath(tenantId, 'vehicles', vehicleId, 'claims', 'abandon'), use);
    } catch {
      /* best effort */
    }
  }
}
