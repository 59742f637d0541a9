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
export {
  CROATIAN_MUNICIPALITIES,
  OFFICIAL_PLACES,
  SLOVENIAN_MUNICIPALITIES,
  type CroatianMunicipality,
  type SlovenianMunicipality,
} from './municipalities';
// The pure modules and the shipped lists only: the file reading is imported from `@travel/places/src/load` where it is wired.
