import type { Market } from '@travel/platform';
import type { PerDiemPolicy } from '@travel/contracts';
import type { RateSource } from '../domain/entry';
import type { DeriveCountry } from '../domain/destination-country';
import type { VehicleFuel } from '../domain/expense';

/** The employees context, as entries needs it. */
export interface EmployeeDirectory {
  exists(tenantId: string, employeeId: string): Promise<boolean>;
  /** Which of `costCenterIds` the employee may charge; null when the employee is not the company's. */
  chargeable(tenantId: string, employeeId: string, costCenterIds: readonly string[]): Promise<string[] | null>;
  /** The company's active account owners: the default fallback approvers (docs/decisions/0105). */
  accountOwners(tenantId: string): Promise<string[]>;
  /** The active approvers who named the employee their delegate for `day` (docs/decisions/0205). */
  delegatorsOf(tenantId: string, employeeId: string, day: string): Promise<string[]>;
}

/** The employees context, as the expense policy needs it (docs/decisions/0203). */
export interface OrgDirectory {
  /** The employee's department; null when none (or no such employee). */
  departmentOf(tenantId: string, employeeId: string): Promise<string | null>;
  /** Which of the departments and cost centers asked are the company's. */
  knownOrgUnits(
    tenantId: string,
    asked: { departmentIds: string[]; costCenterIds: string[] },
  ): Promise<{ departmentIds: string[]; costCenterIds: string[] }>;
}

export interface Conversion {
  /** Decimal text in the base currency's minor digits. */
  baseAmount: string;
  source: RateSource;
}

/** reference-fx's conversion: provider of the market, rate of the date, the manual-rate rule. */
export interface CurrencyConverter {
  convert(input: {
    market: Market;
    amount: string;
    currency: string;
    date: string;
    manualRate: string | null;
  }): Promise<Conversion>;
}

/** The fleet context: a vehicle a Mileage row names must be the company's (it records the use). */
export interface VehicleDirectory {
  /** Claims the vehicle for one expense revision; false when it is not a vehicle of the company. */
  claim(
    tenantId: string,
    vehicleId: string,
    use: { entryId: string; expenseId: string; revision: number },
  ): Promise<boolean>;
  /** Whether the vehicle is the company's, recording nothing (a vehicle named on a non-mileage expense). */
  exists(tenantId: string, vehicleId: string): Promise<boolean>;
  /** The vehicle's fuel type and consumption, recording nothing; null when it is not the company's. */
  fuelData(tenantId: string, vehicleId: string): Promise<VehicleFuel | null>;
  /** Gives back a claim whose expense was then not stored (best effort: never throws). */
  abandon(
    tenantId: string,
    vehicleId: string,
    use: { entryId: string; expenseId: string; revision: number },
  ): Promise<void>;
}

/** The company per-diem policy (reference-fx owns it, docs/decisions/0127); none: no versions. */
export interface PerDiemPolicySource {
  policyOf(tenantId: string): Promise<PerDiemPolicy>;
}

/** The geocoding fallback: a destination's country from offline place data (docs/decisions/0131). */
export interface DestinationCountries {
  derive: DeriveCountry;
}
