import { fuelPrices, mileageRates, type FuelKind, type VehicleKind } from '@travel/regulations';
import type { FieldErrors, Market } from '@travel/platform';
import { optionalText } from '@travel/text-rules';
import { checkRange, Decimal, decimalText, isCurrency, minorDigitsOf, roundText } from './amounts';
import {
  AMOUNT_RANGE,
  DISTANCE_RANGE,
  FUEL_CONSUMPTION_RANGE,
  FUEL_PRICE_RANGE,
  MANUAL_RATE_RANGE,
  TEXT_MAX_LENGTH,
} from './limits';
import { outOfRange, type DecimalRange } from '@travel/money';
import type { RateSource } from './entry-status';
import type { ReadingOrigin } from './reading';
import type { MissingReceiptDeclaration } from './receipt-declaration';

export const EXPENSE_KINDS = [
  'Mileage',
  'Fuel',
  'Toll',
  'Parking',
  'Accommodation',
  'PublicTransport',
  'Meals',
  'Other',
] as const;
export type ExpenseKind = (typeof EXPENSE_KINDS)[number];
export type MileageFuelType = 'Petrol' | 'Diesel' | 'Electric';
export type PetrolGrade = 'Octane95' | 'Octane98';
export type MileageVehicleKind = VehicleKind;

/** What a create or full-replace update of an expense writes (normalized), in a fixed key order. */
export interface ExpenseFields {
  kind: ExpenseKind;
  date: string;
  description: string | null;
  /** Decimal text in `currencyCode`; null on a Mileage row before it is priced. */
  amount: string | null;
  currencyCode: string;
  manualExchangeRate: string | null;
  vehicleId: string | null;
  distanceKm: string | null;
  vehicleKind: MileageVehicleKind | null;
  fuelType: MileageFuelType | null;
  fuelConsumption: string | null;
  fuelUnitPriceOverride: string | null;
  mileagePetrolGrade: PetrolGrade | null;
}

export interface Expense extends ExpenseFields {
  _id: string;
  amount: string;
  amountInBaseCurrency: string;
  exchangeRateSource: RateSource;
  /** Mileage: the statutory rate per km and the fuel price per litre (kWh) applied. */
  ratePerKm: string | null;
  fuelUnitPrice: string | null;
  /** Increases with every change of the expense; orders its vehicle events. */
  revision: number;
  /** The receipt reading it was created from (docs/decisions/0201); kept through updates. */
  receiptReading?: ReadingOrigin | null;
  /** The entry's attachments that are this expense's receipt (docs/decisions/0204); absent on older rows: none. */
  receiptAttachmentIds?: string[];
  /** The employee's declaration that the receipt is missing (issue 39 §4, docs/decisions/0204). */
  missingReceiptDeclaration?: MissingReceiptDeclaration | null;
  createdAt: Date;
  editedAt: Date;
}

export interface ExpenseInput {
  kind: ExpenseKind;
  date: string;
  description?: string | null;
  amount?: number;
  currencyCode?: string;
  manualExchangeRate?: number | null;
  vehicleId?: string | null;
  distanceKm?: number | null;
  vehicleKind?: MileageVehicleKind | null;
  fuelType?: MileageFuelType | null;
  fuelConsumption?: number | null;
  fuelUnitPriceOverride?: number | null;
  mileagePetrolGrade?: PetrolGrade | null;
  /** Ids of the entry's attachments that are the receipt; omitted on an update: kept (docs/decisions/0204). */
  receiptAttachmentIds?: string[] | null;
}

/** Markets whose mileage reimbursement has a fuel part (SPEC: "on a vehicle-use reimbursement row in CZ or SK"). */
const FUEL_PART_MARKETS: ReadonlySet<Market> = new Set(['CZ', 'SK']);

/** The technical certificate's fuel data of the vehicle a Mileage row names, as fleet records it. */
export interface VehicleFuel {
  /** fleet's fuel type: Petrol, Diesel, Lpg, Cng, Electric, PlugInHybrid, Hybrid, or null. */
  fuelType: string | null;
  /** Per 100 km (litres; kWh for Electric), decimal text; null when none is recorded. */
  fuelConsumption: string | null;
}

/**
 * The vehicle fuel types a mileage row is priced with as they are (docs/decisions/0133). The others (LPG,
 * CNG, hybrids) have no regulation price of their own or mix two fuels: such a row states its fuel itself.
 */
const PRICED_VEHICLE_FUELS: ReadonlyMap<string, MileageFuelType> = new Map<string, MileageFuelType>([
  ['Petrol', 'Petrol'],
  ['Diesel', 'Diesel'],
  ['Electric', 'Electric'],
]);

/** The vehicle's consumption as a row stores it ("5.40"), or null when fleet has none a row could take. */
function vehicleConsumption(text: string | null | undefined): string | null {
  if (!text || !/^\d{1,3}(\.\d{1,2})?$/.test(text) || outOfRange(text, FUEL_CONSUMPTION_RANGE)) return null;
  return new Decimal(text).toFixed(2);
}

/**
 * Whether a row takes fuel data from its vehicle: a Mileage row in CZ or SK that names a vehicle and
 * leaves out its fuel type or its consumption (issue 22 §5). The app reads the vehicle only then.
 */
export const needsVehicleFuel = (input: ExpenseInput, market: Market): boolean =>
  input.kind === 'Mileage' &&
  FUEL_PART_MARKETS.has(market) &&
  !!input.vehicleId &&
  (input.fuelType == null || input.fuelConsumption == null);

const RATE_PLACES = 10;
const PRICE_PLACES = 3;

/**
 * Normalizes and checks an expense body. Field errors are keyed `${prefix}field` (`expenses[2].amount`
 * inside an entry create). The vehicle is kept only on Mileage rows; on every other kind it is dropped,
 * like every field that does not affect the row (stored as null). `vehicle`: the fuel data of the vehicle
 * the row names, which a CZ or SK row takes where it gives none of its own (the values applied are stored).
 */
export function expenseFields(
  input: ExpenseInput,
  ctx: { market: Market; baseCurrency: string; prefix?: string; vehicle?: VehicleFuel },
): { fields: ExpenseFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const prefix = ctx.prefix ?? '';
  const add = (field: string, message: string) => (errors[`${prefix}${field}`] ??= []).push(message);
  const mileage = input.kind === 'Mileage';
  const fuelPart = mileage && FUEL_PART_MARKETS.has(ctx.market);

  const currencyCode = mileage ? ctx.baseCurrency : (input.currencyCode ?? ctx.baseCurrency);
  if (mileage && input.currencyCode !== undefined && input.currencyCode !== ctx.baseCurrency)
    add('currencyCode', `a Mileage row is in the base currency ${ctx.baseCurrency}`);
  if (!isCurrency(currencyCode)) add('currencyCode', 'must be an ISO 4217 currency code the product knows');

  let amount: string | null = null;
  if (!mileage) {
    if (input.amount === undefined) add('amount', 'is required');
    else if (isCurrency(currencyCode)) {
      amount = decimalText(input.amount, minorDigitsOf(currencyCode)) ?? null;
      if (amount === null)
        add('amount', `must have at most ${minorDigitsOf(currencyCode)} decimals in ${currencyCode}`);
      checkRange(add, 'amount', amount, AMOUNT_RANGE);
    }
  }
  const optional = (
    field: keyof ExpenseInput,
    value: number | null | undefined,
    places: number,
    range: DecimalRange,
  ): string | null => {
    if (value === undefined || value === null) return null;
    const t = decimalText(value, places);
    if (t === undefined) add(field, `must have at most ${places} decimals`);
    checkRange(add, field, t, range);
    return t ?? null;
  };
  const manualExchangeRate = mileage
    ? null
    : optional('manualExchangeRate', input.manualExchangeRate, RATE_PLACES, MANUAL_RATE_RANGE);

  let distanceKm: string | null = null;
  let fuelType: MileageFuelType | null = null;
  let fuelConsumption: string | null = null;
  let fuelUnitPriceOverride: string | null = null;
  let mileagePetrolGrade: PetrolGrade | null = null;
  if (mileage) {
    distanceKm = optional('distanceKm', input.distanceKm, 2, DISTANCE_RANGE);
    if (input.distanceKm === undefined || input.distanceKm === null) add('distanceKm', 'is required on a Mileage row');
    if (fuelPart) {
      const vehicleFuel = PRICED_VEHICLE_FUELS.get(ctx.vehicle?.fuelType ?? '') ?? null;
      fuelType = input.fuelType ?? vehicleFuel;
      if (!fuelType)
        add(
          'fuelType',
          `is required on a Mileage row in ${ctx.market} (the fuel part)${whyNotFromVehicle(ctx.vehicle, 'fuelType')}`,
        );
      fuelConsumption = optional('fuelConsumption', input.fuelConsumption, 2, FUEL_CONSUMPTION_RANGE);
      // The vehicle's consumption is of its own fuel: a row that names another fuel gives its own figure.
      if (input.fuelConsumption == null && fuelType !== null && fuelType === vehicleFuel)
        fuelConsumption = vehicleConsumption(ctx.vehicle?.fuelConsumption);
      if (fuelConsumption === null && input.fuelConsumption == null)
        add(
          'fuelConsumption',
          `is required on a Mileage row in ${ctx.market} (litres or kWh per 100 km)${whyNotFromVehicle(ctx.vehicle, 'fuelConsumption', fuelType)}`,
        );
      fuelUnitPriceOverride = optional(
        'fuelUnitPriceOverride',
        input.fuelUnitPriceOverride,
        PRICE_PLACES,
        FUEL_PRICE_RANGE,
      );
      // The grade matters only for a petrol vehicle priced at the regulation's average.
      if (fuelType === 'Petrol' && fuelUnitPriceOverride === null)
        mileagePetrolGrade = input.mileagePetrolGrade ?? 'Octane95';
    }
  }

  const description = optionalText(input.description, true, TEXT_MAX_LENGTH.expenseDescription);
  if (description.problem) add('description', description.problem);

  const fields: ExpenseFields = {
    kind: input.kind,
    date: input.date,
    description: description.value,
    amount,
    currencyCode,
    manualExchangeRate,
    vehicleId: mileage ? (input.vehicleId?.toLowerCase() ?? null) : null,
    distanceKm,
    vehicleKind: mileage ? (input.vehicleKind ?? 'Car') : null,
    fuelType,
    fuelConsumption,
    fuelUnitPriceOverride,
    mileagePetrolGrade,
  };
  return { fields, errors };
}

/** Why the named vehicle did not supply a missing fuel field ('' when the row names no vehicle). */
function whyNotFromVehicle(
  vehicle: VehicleFuel | undefined,
  field: 'fuelType' | 'fuelConsumption',
  rowFuel?: MileageFuelType | null,
): string {
  if (!vehicle) return '';
  if (!vehicle.fuelType) return ': the vehicle records no fuel type';
  const priced = PRICED_VEHICLE_FUELS.get(vehicle.fuelType);
  if (!priced)
    return `: the vehicle's fuel type ${vehicle.fuelType} is not priced as it is; give Petrol, Diesel or Electric`;
  if (field === 'fuelConsumption' && rowFuel !== priced)
    return `: the vehicle's consumption is of ${vehicle.fuelType}, the row's fuel is ${rowFuel}`;
  return field === 'fuelConsumption' ? ': the vehicle records no consumption' : '';
}

export interface MileagePrice {
  amount: string;
  ratePerKm: string;
  fuelUnitPrice: string | null;
}

const FUEL_KIND: Record<MileageFuelType, FuelKind> = { Petrol: 'Natural95', Diesel: 'Diesel', Electric: 'Electricity' };

/**
 * A Mileage row's reimbursement: distance × the statutory rate per km in force on the date, plus in CZ
 * and SK the fuel part, distance × consumption / 100 × the receipt price or the regulation's average
 * price of that date (petrol: the chosen grade, 95 by default). Summed exactly, then rounded half-up to
 * the base currency's minor digits once.
 */
export function priceMileage(
  f: ExpenseFields,
  ctx: { market: Market; baseCurrency: string; prefix?: string },
): { price?: MileagePrice; errors: FieldErrors } {
  const prefix = ctx.prefix ?? '';
  const rates = mileageRates(ctx.market, f.date);
  if (rates.status === 'unknown')
    return { errors: { [`${prefix}date`]: [`no statutory mileage rate: ${rates.reason}`] } };
  const perKm = rates.row.perKm[f.vehicleKind ?? 'Car'];
  if (!perKm)
    return {
      errors: { [`${prefix}vehicleKind`]: [`${ctx.market} has no statutory rate for ${f.vehicleKind} on ${f.date}`] },
    };
  if (rates.row.currency !== ctx.baseCurrency)
    return {
      errors: { [`${prefix}date`]: [`the statutory rate is in ${rates.row.currency}, not ${ctx.baseCurrency}`] },
    };
  const distance = new Decimal(f.distanceKm!);
  let total = distance.times(perKm);
  let fuelUnitPrice: string | null = null;
  if (f.fuelType && f.fuelConsumption) {
    if (f.fuelUnitPriceOverride) fuelUnitPrice = f.fuelUnitPriceOverride;
    else {
      const prices = fuelPrices(ctx.market, f.date);
      const kind: FuelKind =
        f.fuelType === 'Petrol' && f.mileagePetrolGrade === 'Octane98' ? 'Natural98' : FUEL_KIND[f.fuelType];
      const price = prices.status === 'known' ? prices.row.prices[kind] : undefined;
      if (!price)
        return {
          errors: {
            [`${prefix}fuelUnitPriceOverride`]: [
              `the regulation has no average ${kind} price for ${ctx.market} on ${f.date}${prices.status === 'unknown' ? ` (${prices.reason})` : ''}; give the receipt price`,
            ],
          },
        };
      fuelUnitPrice = price;
    }
    total = total.plus(distance.times(f.fuelConsumption).dividedBy(100).times(fuelUnitPrice));
  }
  return {
    price: { amount: roundText(total, minorDigitsOf(ctx.baseCurrency)), ratePerKm: perKm, fuelUnitPrice },
    errors: {},
  };
}

/** The writable fields of a stored expense, as `expenseFields` produces them (Mileage amounts are computed). */
export function storedExpenseFields(e: Expense): ExpenseFields {
  return {
    kind: e.kind,
    date: e.date,
    description: e.description ?? null,
    amount: e.kind === 'Mileage' ? null : e.amount,
    currencyCode: e.currencyCode,
    manualExchangeRate: e.manualExchangeRate ?? null,
    vehicleId: e.vehicleId ?? null,
    distanceKm: e.distanceKm ?? null,
    vehicleKind: e.vehicleKind ?? null,
    fuelType: e.fuelType ?? null,
    fuelConsumption: e.fuelConsumption ?? null,
    fuelUnitPriceOverride: e.fuelUnitPriceOverride ?? null,
    mileagePetrolGrade: e.mileagePetrolGrade ?? null,
  };
}

export const sameExpenseFields = (a: ExpenseFields, b: ExpenseFields): boolean =>
  JSON.stringify(a) === JSON.stringify(b);
