// The index the entries service keeps: the shipped GeoNames places and the official municipality lists.
import { geonamesPlaces } from './geonames-file';
import { PlaceIndex, type OfficialPlace } from './place-index';

/**
 * Alternate names (exonyms: Wien/Vienna, Praha/Prague, Cracow) are indexed for places of at least 5,000
 * people: smaller places are found by their own name. Measured (heap kept, tsx): no alternate names 30 MiB,
 * from 5,000 people 43 MiB, every place's 50 MiB with half as many names again (docs/benchmarks.md).
 */
export const ALTERNATE_NAMES_FROM_POPULATION = 5000;

export function loadPlaceIndex(official: readonly OfficialPlace[], path?: string): PlaceIndex {
  return PlaceIndex.build(geonamesPlaces(path, ALTERNATE_NAMES_FROM_POPULATION), official, {
    alternateNamesFromPopulation: ALTERNATE_NAMES_FROM_POPULATION,
  });
}
