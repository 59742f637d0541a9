import type { EventData } from '@travel/contracts';
import { raiseEvent, isDuplicateKey, type Logger, type TenantId, withRevisionRetry } from '@travel/platform';
import { abandonClaim, applyUsage, liveCount, usageKey, type Usage, type UsageChange } from '../domain/usage';
import type { FleetRepositories, VehicleDoc } from '../infra/repositories';

export interface UsageEventData extends Omit<UsageChange, 'live'> {
  vehicleId: string;
}

/** What a successful claim tells the entries context about the vehicle it may now use. */
export interface ClaimedVehicle {
  id: string;
  type: string;
  ownerEmployeeId: string | null;
  isArchived: boolean;
  fuelType: string | null;
  /** Per 100 km (litres, kWh for an Electric vehicle), decimal text: the entries context prices with it. */
  fuelConsumption: string | null;
  category: number | null;
  engineCapacityCc: number | null;
  enginePowerKw: number | null;
}

/** What entries reads of a vehicle without claiming it. */
/** Also the plate: the travel order and settlement PDFs name the vehicle a mileage row was driven with. */
export type VehicleFuelData = Pick<ClaimedVehicle, 'id' | 'isArchived' | 'fuelType' | 'fuelConsumption'> & {
  licensePlate: string | null;
};

export const REFUSED_EVENT = 'vehicle.usage-refused';

/**
 * The usage projection (docs/decisions/0032). Every change is decided on the vehicle's document at the
 * revision read and written conditionally on it, exactly like a delete: a first use and a delete of the
 * same vehicle can never both succeed.
 */
export class UsageApp {
  constructor(
    private readonly repos: FleetRepositories,
    private readonly logger: Logger,
  ) {}

  /**
   * Records a change on an existing vehicle. Returns the vehicle (changed or not), or null when the
   * vehicle does not exist in this company (never existed, or deleted).
   */
  async apply(tenantId: TenantId, vehicleId: string, change: UsageChange): Promise<VehicleDoc | null> {
    return this.change(tenantId, vehicleId, usageKey(change), (usage, now) => applyUsage(usage, change, now));
  }

  /** Gives back a claim whose expense was not stored (see abandonClaim). */
  async abandon(tenantId: TenantId, data: UsageEventData): Promise<void> {
    await this.change(tenantId, data.vehicleId, usageKey(data), (usage, now) => abandonClaim(usage, data, now));
  }

  /** Decides a usage change on the vehicle's document and writes it at the revision read. */
  private change(
    tenantId: TenantId,
    vehicleId: string,
    key: string,
    decide: (usage: Usage, now: Date) => Usage | undefined,
  ): Promise<VehicleDoc | null> {
    return withRevisionRetry(
      'vehicle',
      async () => {
        const vehicles = this.repos.vehicles.of(tenantId);
        const current = await vehicles.get(vehicleId.toLowerCase());
        if (!current) return null;
        const usage = decide(current.usage ?? {}, new Date());
        if (!usage) return current;
        const inUse = liveCount(usage);
        const rev = await vehicles.commit(current, { $set: { [`usage.${key}`]: usage[key], inUse } });
        return { ...current, usage, inUse, rev };
      },
      // A pool car's uses can arrive together (bounded by the consumer's prefetch): one wins per round.
      25,
    );
  }

  /**
   * The synchronous check the entries context makes before it stores a mileage expense: records the use
   * at once, so a delete that comes later sees it. Null when the vehicle is not (any longer) the company's.
   */
  async claim(tenantId: TenantId, data: UsageEventData): Promise<ClaimedVehicle | null> {
    const v = await this.apply(tenantId, data.vehicleId, { ...data, live: true });
    if (!v) return null;
    return {
      id: v._id,
      type: v.type,
      ownerEmployeeId: v.ownerEmployeeId ?? null,
      isArchived: v.isArchived,
      fuelType: v.fuelType ?? null,
      fuelConsumption: v.fuelConsumption ?? null,
      category: v.category ?? null,
      engineCapacityCc: v.engineCapacityCc ?? null,
      enginePowerKw: v.enginePowerKw ?? null,
    };
  }

  /**
   * A vehicle of the company, without recording a use: entries checks a `vehicleId` sent on a non-mileage
   * expense, which it then does not store (SPEC, Endpoints rule 3), and reads the technical certificate's
   * fuel data a mileage row takes when it gives none of its own (docs/decisions/0133).
   */
  async find(tenantId: TenantId, vehicleId: string): Promise<VehicleFuelData | null> {
    const v = await this.repos.vehicles.of(tenantId).get(vehicleId.toLowerCase());
    return v
      ? {
          id: v._id,
          isArchived: v.isArchived,
          fuelType: v.fuelType ?? null,
          fuelConsumption: v.fuelConsumption ?? null,
          licensePlate: v.licensePlate ?? null,
        }
      : null;
  }

  /** `vehicle.used` from the bus. A use of a vehicle that no longer exists is reported back, once. */
  async used(tenantId: TenantId, data: UsageEventData): Promise<void> {
    const v = await this.apply(tenantId, data.vehicleId, { ...data, live: true });
    if (v) return;
    this.logger.warn(
      { tenantId, vehicleId: data.vehicleId, entryId: data.entryId },
      'vehicle.used for a missing vehicle; reported back',
    );
    const now = new Date();
    const refusal: EventData<'fleet.vehicle.usage-refused'> = {
      vehicleId: data.vehicleId.toLowerCase(),
      entryId: data.entryId,
      expenseId: data.expenseId,
      revision: data.revision,
      reason: 'VehicleNotFound',
    };
    const event = raiseEvent('fleet', REFUSED_EVENT, tenantId, refusal, now);
    try {
      await this.repos.usageRefusals
        .of(tenantId)
        .create({ _id: `${tenantId}_${usageKey(data)}_${data.revision}`, tenantId, ...refusal, at: now }, event);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // reported before: its event is in the outbox already
    }
  }

  /** `vehicle.released` from the bus: the expense or its entry was removed, or it names another vehicle now. */
  async released(tenantId: TenantId, data: UsageEventData): Promise<void> {
    await this.apply(tenantId, data.vehicleId, { ...data, live: false });
  }
}
