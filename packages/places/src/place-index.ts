// An in-memory index from folded place names to places: built once from the place records (GeoNames)
// and the official municipality lists. Compact on purpose (typed arrays, one number per name that names
// one place): it lives as long as the entries service (docs/decisions/0130, docs/benchmarks.md).
import { foldPlaceName } from './fold';

/** One populated place of the place data (a GeoNames `cities500` row, the fields used here). */
export interface PlaceRecord {
  /** The GeoNames id (`2761369` Vienna). */
  geonameId: number;
  name: string;
  asciiName?: string;
  alternateNames: readonly string[];
  countryCode: string;
  population: number;
  /** GeoNames feature code (`PPLC` capital, `PPLA` seat of a first-order division, `PPLH` historical…). */
  featureCode: string;
}

/** A named municipality of an official list (HR Porezna uprava, SI SURS), in one country. */
export interface OfficialPlace {
  name: string;
  countryCode: string;
}

/** A place a name can mean. */
export interface Place {
  countryCode: string;
  /** 0 when unknown (an official list names the place, the place data does not). */
  population: number;
  /** The GeoNames id, or null for a place only an official list names. */
  geonameId: number | null;
  /** The name the place data gives it. */
  name: string;
}

export interface PlaceIndexOptions {
  /** Alternate names (exonyms, other languages) are indexed for places of at least this population. */
  alternateNamesFromPopulation: number;
}

// Historical, abandoned and destroyed places: their names are no trip's destination today.
const NOT_A_DESTINATION: ReadonlySet<string> = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
// Alternate names in Latin script only: the markets write Latin; other scripts would cost memory unused.
const LATIN = /^[\p{Script=Latin}\p{M}\p{N}\s'’.,()/-]+$/u;
// Codes among GeoNames' alternate names (IATA `VIE`, ICAO `LOWW`) are not names.
const CODE = /^[A-Z0-9]{3,4}$/;

/**
 * A copy of a string that shares no memory with the one it came from: a name cut from a line of the file
 * would otherwise keep the whole chunk it was read in alive (V8 slices), about the file's size in heap.
 * V8 copies a cut of fewer than 13 characters anyway (SlicedString::kMinLength), so only longer ones are copied.
 */
const detached = (s: string): string => (s.length < 13 ? s : s.split('').join(''));

const packCountry = (code: string): number => code.charCodeAt(0) * 256 + code.charCodeAt(1);
const unpackCountry = (n: number): string => String.fromCharCode(n >> 8, n & 255);

/** Names folded by `foldPlaceName` → the places they name. */
export class PlaceIndex {
  private readonly names = new Map<string, number>(); // ≥ 0: one place; < 0: -(1 + slot in `shared`)
  private readonly shared: number[][] = [];
  private readonly byGeonameId = new Map<number, number>();
  private countries = new Uint16Array(1024);
  private populations = new Uint32Array(1024);
  private geonameIds = new Uint32Array(1024);
  private readonly placeNames: string[] = [];
  /** Folded official municipality names → the countries whose official list names them. */
  private readonly officialNames = new Map<string, string[]>();

  /** Places indexed (GeoNames places and municipalities only the official lists name). */
  get size(): number {
    return this.placeNames.length;
  }

  /** Distinct folded names. */
  get nameCount(): number {
    return this.names.size;
  }

  static build(
    records: Iterable<PlaceRecord>,
    official: readonly OfficialPlace[],
    options: PlaceIndexOptions,
  ): PlaceIndex {
    const index = new PlaceIndex();
    for (const r of records) if (!NOT_A_DESTINATION.has(r.featureCode)) index.addRecord(r, options);
    for (const p of official) index.addOfficial(p);
    return index;
  }

  /** The places a name (any spelling `foldPlaceName` folds alike) can mean. */
  lookup(text: string): Place[] {
    const slot = this.names.get(foldPlaceName(text));
    if (slot === undefined) return [];
    return (slot >= 0 ? [slot] : this.shared[-slot - 1]!).map((i) => this.place(i));
  }

  /** Whether the official municipality list of a country names the place (any spelling folded alike). */
  isOfficialName(text: string, countryCode: string): boolean {
    return this.officialNames.get(foldPlaceName(text))?.includes(countryCode) ?? false;
  }

  /** The place of a GeoNames id, if the place data has it. */
  byId(geonameId: number): Place | undefined {
    const i = this.byGeonameId.get(geonameId);
    return i === undefined ? undefined : this.place(i);
  }

  private place(i: number): Place {
    const id = this.geonameIds[i]!;
    return {
      countryCode: unpackCountry(this.countries[i]!),
      population: this.populations[i]!,
      geonameId: id === 0 ? null : id,
      name: this.placeNames[i]!,
    };
  }

  private addRecord(r: PlaceRecord, options: PlaceIndexOptions): void {
    const i = this.newPlace(r.name, r.countryCode, r.population, r.geonameId);
    this.byGeonameId.set(r.geonameId, i);
    this.addName(r.name, i);
    if (r.asciiName) this.addName(r.asciiName, i);
    if (r.population >= options.alternateNamesFromPopulation)
      for (const alt of r.alternateNames)
        if (alt.length > 2 && LATIN.test(alt) && !CODE.test(alt)) this.addName(alt, i);
  }

  /**
   * A municipality of an official list: the place data's own place when it names one of that name in that
   * country, else a place of its own. Bilingual names (`Koper/Capodistria`, `BALE - VALLE`) are found by
   * the whole name and by each part.
   */
  private addOfficial(p: OfficialPlace): void {
    const parts = p.name.split(/\s+-\s+|\//).filter((s) => s.trim());
    const spellings = [p.name, ...(parts.length > 1 ? parts : [])];
    const known = spellings.flatMap((s) => this.lookup(s)).find((place) => place.countryCode === p.countryCode);
    const i = known?.geonameId ? this.byGeonameId.get(known.geonameId)! : this.newPlace(p.name, p.countryCode, 0, 0);
    for (const s of spellings) {
      this.addName(s, i);
      const countries = this.officialNames.get(foldPlaceName(s));
      if (!countries) this.officialNames.set(detached(foldPlaceName(s)), [p.countryCode]);
      else if (!countries.includes(p.countryCode)) countries.push(p.countryCode);
    }
  }

  private newPlace(name: string, countryCode: string, population: number, geonameId: number): number {
    const i = this.placeNames.length;
    if (i === this.countries.length) {
      this.countries = grow(this.countries, new Uint16Array(i * 2));
      this.populations = grow(this.populations, new Uint32Array(i * 2));
      this.geonameIds = grow(this.geonameIds, new Uint32Array(i * 2));
    }
    this.countries[i] = packCountry(countryCode);
    this.populations[i] = population;
    this.geonameIds[i] = geonameId;
    this.placeNames.push(detached(name));
    return i;
  }

  private addName(name: string, i: number): void {
    const key = foldPlaceName(name);
    if (!key) return;
    const slot = this.names.get(key);
    if (slot === undefined) this.names.set(detached(key), i);
    else if (slot >= 0) {
      if (slot !== i) this.names.set(key, -this.shared.push([slot, i]));
    } else {
      const places = this.shared[-slot - 1]!;
      if (!places.includes(i)) places.push(i);
    }
  }
}

function grow<T extends Uint16Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
