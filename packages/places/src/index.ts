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
// The pure modules only: the file reading is imported from `@travel/places/src/load` where it is wired.
