// Countries named in a destination text (`Austria`, `Rakousko`, `Niemcy`, `Brno, Česko`): the region names
// of Node's own ICU data in the markets' languages and their neighbours'. No data file, nothing to update
// by hand. ICU also names retired codes (`DD`, East Germany: `Niemcy` in Polish), so only the codes the
// product lists count, and a name two of those share names neither.
import { foldPlaceName } from './fold';

const LANGUAGES = ['en', 'de', 'cs', 'sk', 'pl', 'hr', 'sl', 'hu', 'it', 'fr'] as const;

let byName: Map<string, string[]> | undefined;

/** The country a text names, when it is the name of exactly one listed country; else undefined. */
export function countryNamed(text: string, isListed: (code: string) => boolean): string | undefined {
  byName ??= regionNames();
  const listed = (byName.get(foldPlaceName(text)) ?? []).filter(isListed);
  return listed.length === 1 ? listed[0] : undefined;
}

function regionNames(): Map<string, string[]> {
  const codes = new Map<string, Set<string>>();
  const displays = LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: 'region', fallback: 'none' }));
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      for (const display of displays) {
        const key = foldPlaceName(display.of(code) ?? '');
        if (!key) continue;
        const set = codes.get(key) ?? new Set<string>();
        codes.set(key, set.add(code));
      }
    }
  return new Map([...codes].map(([name, set]) => [name, [...set]]));
}
