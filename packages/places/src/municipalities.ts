// The official municipality lists, shipped as data (packages/places/data/README.md names the sources):
// 212 Slovenian municipalities with their SURS codes, and the 556 Croatian towns and municipalities with
// the codes of the Porezna uprava table. Read-only, the same for every tenant. One home for two users:
// reference-fx serves them (`/api/v1/reference/{croatian,slovenian}-municipalities`), entries resolves
// domestic places with them (decision 0131).
import croatian from '../data/croatian-municipalities.json';
import slovenian from '../data/slovenian-municipalities.json';
import type { OfficialPlace } from './place-index';

export interface SlovenianMunicipality {
  /** Three-digit SURS municipality code (`061` Ljubljana). */
  code: string;
  /** ISO 3166-2 code (`SI-061`). */
  isoCode: string;
  name: string;
}

export interface CroatianMunicipality {
  /** The code of the town or municipality as Porezna uprava prints it (`1333` Zagreb). */
  code: string;
  /** The name as the source prints it (upper case). */
  name: string;
}

export const SLOVENIAN_MUNICIPALITIES: readonly SlovenianMunicipality[] = slovenian;
export const CROATIAN_MUNICIPALITIES: readonly CroatianMunicipality[] = croatian;

/** Every municipality of the two lists, each in its country: the place index's official places. */
export const OFFICIAL_PLACES: readonly OfficialPlace[] = [
  ...CROATIAN_MUNICIPALITIES.map((m) => ({ name: m.name, countryCode: 'HR' })),
  ...SLOVENIAN_MUNICIPALITIES.map((m) => ({ name: m.name, countryCode: 'SI' })),
];
