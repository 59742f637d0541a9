// The destination country of a trip without a supplied `destinationCountryCode` (SPEC, travel entry):
// from the place id when it is one the place data knows, else from the destination text. One country
// or none, and when none, why (docs/decisions/0131).
import { countryNamed } from './country-names';
import { foldPlaceName } from './fold';
import type { Place, PlaceIndex } from './place-index';

/** Where the country came from, or that there is none. */
export type CountrySource = 'Supplied' | 'DerivedFromPlaceId' | 'DerivedFromDestination' | 'Unresolved';
/** Why there is no country. */
export type UnresolvedReason = 'NoDestination' | 'Unknown' | 'Ambiguous' | 'UnlistedCountry';

export interface CountryResolution {
  source: CountrySource;
  /** Set when `source` is `Unresolved`, else null. */
  reason: UnresolvedReason | null;
  /** Ambiguous: the countries the destination can be in, the most populous place's first; else []. */
  candidates: string[];
  /** One sentence for a person. */
  detail: string;
}

export interface DerivedCountry {
  countryCode: string | null;
  resolution: CountryResolution;
}

/** One place is the one meant when it has at least this many times the people of every other match. */
export const DOMINANCE = 10;

/** The place id form the place data resolves: `geonames:<id>` (any other provider's ids are opaque here). */
const GEONAMES_ID = /^geonames:(\d{1,10})$/i;

export interface DeriveQuery {
  destinationPlaceId: string | null;
  destination: string | null;
}

export interface DeriveContext {
  /** Whether the product knows a country code (a place in a country it does not list gives no country). */
  isListed: (countryCode: string) => boolean;
  /**
   * The company's own country: a destination its official municipality list names is the domestic
   * place (an HR company's `Gradac` is the Dalmatian town, not Graz, whose old Croatian name it also is).
   */
  homeCountry?: string;
}

/** The country of a destination: the place id's, the domestic municipality's, or the one the name means. */
export function deriveCountry(index: PlaceIndex, query: DeriveQuery, context: DeriveContext): DerivedCountry {
  const { isListed, homeCountry } = context;
  const fromId = placeOfId(index, query.destinationPlaceId);
  if (fromId) {
    return isListed(fromId.countryCode)
      ? derived(
          'DerivedFromPlaceId',
          fromId.countryCode,
          `from place id ${query.destinationPlaceId} (${origin(fromId)})`,
        )
      : unlisted(fromId.countryCode, `place id ${query.destinationPlaceId} (${fromId.name})`);
  }
  const text = query.destination?.trim() ?? '';
  if (!foldPlaceName(text))
    return unresolved('NoDestination', [], 'No destination text and no place id the place data knows.');
  if (homeCountry && index.isOfficialName(text, homeCountry))
    return derived(
      'DerivedFromDestination',
      homeCountry,
      `from the destination "${text}" (a municipality of the official list)`,
    );
  // The name of a country means that country, before any town of the same name (`Georgia`, `Mexico`).
  const named = countryNamed(text, isListed);
  if (named) return derived('DerivedFromDestination', named, `from the destination "${text}" (the country's name)`);
  const { places, qualifier } = matches(index, text, isListed);
  if (places.length === 0)
    return unresolved('Unknown', [], `No place named "${text}" in the place data; send destinationCountryCode.`);
  const listed = places.filter((p) => isListed(p.countryCode));
  if (listed.length === 0) return unlisted(places[0]!.countryCode, `"${text}"`);
  const chosen = oneCountry(listed);
  if (chosen)
    return derived(
      'DerivedFromDestination',
      chosen.countryCode,
      `from the destination "${text}" (${origin(chosen)}${qualifier ? `, ${qualifier}` : ''})`,
    );
  const candidates = countriesByPopulation(listed);
  return unresolved(
    'Ambiguous',
    candidates,
    `"${text}" names ${listed.length} places in ${candidates.join(', ')} and none is clearly the one meant; ` +
      'send destinationCountryCode.',
  );
}

/** Where a place comes from, for the detail sentence (GeoNames data is CC BY 4.0: attributed). */
const origin = (p: Place): string => (p.geonameId ? `GeoNames: ${p.name}` : `${p.name}, official municipality list`);

function placeOfId(index: PlaceIndex, placeId: string | null): Place | undefined {
  const m = placeId ? GEONAMES_ID.exec(placeId.trim()) : null;
  return m ? index.byId(Number(m[1])) : undefined;
}

/**
 * The places the text names: the whole text, else its first comma-separated part (`Brno, Czechia`),
 * narrowed to the country a later part names, by its ISO code (`Springfield, US`) or its name
 * (`Springfield, Australia`).
 */
function matches(
  index: PlaceIndex,
  text: string,
  isListed: (code: string) => boolean,
): { places: Place[]; qualifier: string | null } {
  const whole = index.lookup(text);
  if (whole.length) return { places: whole, qualifier: null };
  const [head, ...rest] = text.split(',').map((s) => s.trim());
  if (!head || rest.length === 0) return { places: [], qualifier: null };
  const places = index.lookup(head);
  const code = rest.map((s) => (/^[A-Za-z]{2}$/.test(s) ? s.toUpperCase() : countryNamed(s, isListed))).find(Boolean);
  if (!code) return { places, qualifier: null };
  return { places: places.filter((p) => p.countryCode === code), qualifier: code };
}

/** The place meant: every match in one country (its most populous), or one match that dominates the rest. */
function oneCountry(places: readonly Place[]): Place | undefined {
  const sorted = [...places].sort((a, b) => b.population - a.population);
  const top = sorted[0]!;
  if (sorted.every((p) => p.countryCode === top.countryCode)) return top;
  const second = sorted[1]!;
  return top.population >= DOMINANCE * second.population && top.population > 0 ? top : undefined;
}

const countriesByPopulation = (places: readonly Place[]): string[] => [
  ...new Set([...places].sort((a, b) => b.population - a.population).map((p) => p.countryCode)),
];

const derived = (
  source: 'DerivedFromPlaceId' | 'DerivedFromDestination',
  countryCode: string,
  from: string,
): DerivedCountry => ({
  countryCode,
  resolution: { source, reason: null, candidates: [], detail: `${countryCode} derived ${from}.` },
});

const unresolved = (reason: UnresolvedReason, candidates: string[], detail: string): DerivedCountry => ({
  countryCode: null,
  resolution: { source: 'Unresolved', reason, candidates, detail },
});

const unlisted = (countryCode: string, what: string): DerivedCountry =>
  unresolved(
    'UnlistedCountry',
    [],
    `${what} lies in ${countryCode}, a country code the product does not list; send destinationCountryCode.`,
  );

/** The resolution of a supplied code: stored as sent, the fallback skipped. */
export const supplied = (): CountryResolution => ({
  source: 'Supplied',
  reason: null,
  candidates: [],
  detail: 'Supplied with the entry; stored as sent.',
});
