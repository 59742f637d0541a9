// Which destination country a create or an update stores, and why (SPEC, travel entry:
// `destinationCountryCode`; docs/decisions/0131, 0132, amended by issue 42). A supplied code is stored as
// sent and the geocoding fallback is skipped; without one the country is derived from the place id or the
// text, on an update too (a full replace clears an omitted code).
import { supplied, type CountryResolution, type DeriveQuery, type DerivedCountry } from '@travel/places';

/** Derives a country from the destination (the place index behind it is the app's port). */
export type DeriveCountry = (query: DeriveQuery & { homeCountry: string }) => Promise<DerivedCountry>;

/** An entry's destination fields (entry.ts's EntryFields has them), as a write settles them. */
export interface DestinationFields {
  destination: string | null;
  destinationPlaceId: string | null;
  destinationCountryCode: string | null;
  /** Where the country came from, or why there is none (docs/decisions/0131); null before it is settled. */
  destinationCountryResolution: CountryResolution | null;
}

type Stored = DestinationFields;

const isDerived = (r: CountryResolution | null): boolean =>
  r?.source === 'DerivedFromPlaceId' || r?.source === 'DerivedFromDestination';

/**
 * The stored resolution of an entry: as stored, or for an entry stored before the fallback (none stored)
 * `Supplied` when it has a code (nothing else could have set it) and null when it has none.
 */
export function storedResolution(
  e: Pick<DestinationFields, 'destinationCountryCode'> & { destinationCountryResolution?: CountryResolution | null },
): CountryResolution | null {
  const r = e.destinationCountryResolution;
  // A plain copy in a fixed key order: full-replace updates compare fields as JSON.
  if (r) return { source: r.source, reason: r.reason ?? null, candidates: [...(r.candidates ?? [])], detail: r.detail };
  return e.destinationCountryCode ? supplied() : null;
}

/**
 * The code and resolution a write stores. `sent` is the body's `destinationCountryCode`: undefined when
 * omitted. On a create a code is `Supplied`, null or omitted derives. On an update (`stored`):
 * - a code that differs from the stored one, or repeats a supplied one, is `Supplied`;
 * - a code that repeats a derived one is the GET body sent back, not a choice: it is treated as not sent;
 * - omitted or null clears a supplied code: the update is a full replace and the spec states no exception
 *   for this field (issue 42), so the country is derived from the destination as on a create;
 * - not supplied: a stored derivation stays while the destination and its place id are unchanged, and is
 *   derived again when either changed (or when the stored code was supplied).
 */
export async function settleCountry(
  sent: string | null | undefined,
  next: Pick<DestinationFields, 'destination' | 'destinationPlaceId'>,
  stored: Stored | undefined,
  derive: DeriveCountry,
  homeCountry: string,
): Promise<Pick<DestinationFields, 'destinationCountryCode' | 'destinationCountryResolution'>> {
  const before = stored ? storedResolution(stored) : null;
  if (sent) {
    const echo = stored !== undefined && isDerived(before) && sent === stored.destinationCountryCode;
    if (!echo) return { destinationCountryCode: sent, destinationCountryResolution: supplied() };
  }
  const samePlace =
    stored !== undefined &&
    stored.destination === next.destination &&
    stored.destinationPlaceId === next.destinationPlaceId;
  if (samePlace && before?.source !== 'Supplied')
    return { destinationCountryCode: stored.destinationCountryCode, destinationCountryResolution: before };
  const d = await derive({ destination: next.destination, destinationPlaceId: next.destinationPlaceId, homeCountry });
  return { destinationCountryCode: d.countryCode, destinationCountryResolution: d.resolution };
}

/** Where no place data is wired (use-case tests of other behaviour): every derivation is `Unknown`. */
export const unresolvedWithoutPlaceData: DeriveCountry = async () => ({
  countryCode: null,
  resolution: { source: 'Unresolved', reason: 'Unknown', candidates: [], detail: 'No place data is loaded.' },
});
