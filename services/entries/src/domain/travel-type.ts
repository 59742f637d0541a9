// An entry's travel type, from where the trip goes (issue 34; docs/decisions/0190). A trip is `Foreign`
// when its destination country or any per-diem row (the itinerary's stays) lies outside the company's
// market country; else `Domestic`. The type is derived where the caller does not send it; a sent type the
// trip contradicts is refused. Only `Domestic` can be contradicted: domestic rows and a domestic
// destination do not prove that a trip stayed at home (CZ folds a short stay abroad into domestic rows, a
// domestic destination may lie beyond a border crossing, a trip request is authorized before its rows
// exist), so `Foreign` is the caller's word and is kept.
import type { FieldErrors } from '@travel/platform';
import { isCountryCode } from '@travel/regulations';
import type { TravelType } from './entry-status';

/** What says where a trip goes: the company's market country, the destination country and the rows' countries. */
export interface TripCountries {
  market: string;
  destinationCountryCode: string | null;
  rowCountries: readonly string[];
}

/** The countries of the trip outside the market, destination first, each once. */
export function countriesAbroad(trip: TripCountries): string[] {
  const all = [trip.destinationCountryCode, ...trip.rowCountries];
  return [...new Set(all.filter((c): c is string => isCountryCode(c) && c !== trip.market))];
}

/** `Foreign` when anything of the trip lies abroad, else `Domestic`. */
export const derivedTravelType = (trip: TripCountries): TravelType =>
  countriesAbroad(trip).length ? 'Foreign' : 'Domestic';

/**
 * The type a write stores. `sent` is the body's `travelType` (undefined when omitted); `stored` the
 * entry's before an update. Omitted: derived (a full replace keeps nothing unasked). Sent: stored as sent
 * unless the trip contradicts it (`Domestic` for a trip abroad), which is a 400 keyed `travelType`, except
 * that the stored value sent back unchanged (the GET body) is not a choice: it is derived again.
 */
export function settleTravelType(
  sent: TravelType | undefined,
  trip: TripCountries,
  stored?: TravelType,
): { travelType: TravelType; errors: FieldErrors } {
  const derived = derivedTravelType(trip);
  if (sent === undefined) return { travelType: derived, errors: {} };
  if (sent === 'Foreign' || derived === 'Domestic') return { travelType: sent, errors: {} };
  if (stored !== undefined && sent === stored) return { travelType: derived, errors: {} };
  const abroad = countriesAbroad(trip).join(', ');
  return {
    travelType: sent,
    errors: {
      travelType: [
        `must be Foreign (or omitted): the trip goes abroad (${abroad}), outside the company's market country ${trip.market}`,
      ],
    },
  };
}

/**
 * The type after the per-diem rows alone changed (from-itinerary, which sends no type): the stored one
 * while the trip agrees with it, `Foreign` once the rows go abroad.
 */
export const typeAfterRows = (stored: TravelType, trip: TripCountries): TravelType =>
  stored === 'Foreign' ? stored : derivedTravelType(trip);
