// The geocoding fallback's place data: the GeoNames index of @travel/places and the official HR and SI
// municipality lists that reference-fx serves (the same data, not a copy). Loaded once, at start.
import { deriveCountry, type OfficialPlace, type PlaceIndex } from '@travel/places';
import { loadPlaceIndex } from '@travel/places/src/load';
import { isCountryCode } from '@travel/regulations';
import { CROATIAN_MUNICIPALITIES, SLOVENIAN_MUNICIPALITIES } from '@travel/reference-fx/src/domain/municipalities';
import type { DestinationCountries } from '../app/ports';
import type { DeriveCountry } from '../domain/destination-country';

/** The municipalities of the reference endpoints, each in its country. */
export const OFFICIAL_PLACES: readonly OfficialPlace[] = [
  ...CROATIAN_MUNICIPALITIES.map((m) => ({ name: m.name, countryCode: 'HR' })),
  ...SLOVENIAN_MUNICIPALITIES.map((m) => ({ name: m.name, countryCode: 'SI' })),
];

export class OfflinePlaces implements DestinationCountries {
  private index: PlaceIndex | undefined;

  /** Builds the index (about 1.5 s of CPU and 44 MiB of heap kept: docs/benchmarks.md); idempotent. */
  load(): PlaceIndex {
    return (this.index ??= loadPlaceIndex(OFFICIAL_PLACES));
  }

  readonly derive: DeriveCountry = async ({ homeCountry, ...query }) =>
    deriveCountry(this.load(), query, { isListed: isCountryCode, homeCountry });
}
