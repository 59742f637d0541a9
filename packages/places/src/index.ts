export { foldPlaceName } from './fold';
export { PlaceIndex, type OfficialPlace, type Place, type PlaceIndexOptions, type PlaceRecord } from './place-index';
export {
  DOMINANCE,
  supplied,
  deriveCountry,
  type CountryResolution,
  type CountrySource,
  type DeriveContext,
  type DeriveQuery,
  type DerivedCountry,
  type UnresolvedReason,
} from './resolve';
export { geonamesFile, geonamesPlaces, linesOf, parseGeonamesRow } from './geonames-file';
export { loadPlaceIndex, ALTERNATE_NAMES_FROM_POPULATION } from './load';
