// The index the entries service keeps: the shipped GeoNames places and the official municipality lists.
import { geonamesPlaces } from './geonames-file';
import { PlaceIndex, type OfficialPlace } from './place-index';

/**
 * Alternate names (exonyms: Wien/Vienna, Praha/Prague, Cracow) are indexed for places of at least 5,000
 * people: smaller places are found by their own name, and their alternate names would add a third to the
 * index's memory (docs/benchmarks.md, place index).
 */
export const ALTERNATE_NAMES_FROM_POPULATION = 5000;

export function loadPlaceIndex(official: readonly OfficialPlace[], path?: string): PlaceIndex {
  return PlaceIndex.build(geonamesPlaces(path, ALTERNATE_NAMES_FROM_POPULATION), official, {
    alternateNamesFromPopulation: ALTERNATE_NAMES_FROM_POPULATION,
  });
}
