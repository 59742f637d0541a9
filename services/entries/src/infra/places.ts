// The geocoding fallback's place data: the GeoNames index of @travel/places and the official HR and SI
// municipality lists it ships (the same lists reference-fx serves). Loaded once, at start.
import { deriveCountry, OFFICIAL_PLACES, type PlaceIndex } from '@travel/places';
import { loadPlaceIndex } from '@travel/places/src/load';
import { isCountryCode } from '@travel/regulations';
import type { DestinationCountries } from '../app/ports';
import type { DeriveCountry } from '../domain/destination-country';

export class OfflinePlaces implements DestinationCountries {
  private index: PlaceIndex | undefined;

  /** Builds the index (about 1.5 s of CPU and 44 MiB of heap kept: docs/benchmarks.md); idempotent. */
  load(): PlaceIndex {
    return (this.index ??= loadPlaceIndex(OFFICIAL_PLACES));
  }

  readonly derive: DeriveCountry = async ({ homeCountry, ...query }) =>
    deriveCountry(this.load(), query, { isListed: isCountryCode, homeCountry });
}
