// The one form place names are compared in, so `Kraków`, `KRAKOW` and `krakow` meet, and so do
// `Zürich`/`Zuerich`-free spellings like `Zurich`. Letters that Unicode does not decompose into a base
// letter and a mark (đ, ł, ø, ß, æ, œ, ı, þ) are mapped by hand.
const UNDECOMPOSED: Readonly<Record<string, string>> = {
  đ: 'd',
  ł: 'l',
  ø: 'o',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  þ: 'th',
  ð: 'd',
  ħ: 'h',
};
const UNDECOMPOSED_LETTER = /[đłøßæœıþðħ]/g;

const ASCII = /^[\x20-\x7e]*$/;

/** Lower case, no diacritics, punctuation (`-`, `.`, `'`, `/`, brackets) and runs of spaces as one space. */
export function foldPlaceName(text: string): string {
  // Most names of the place data are ASCII: nothing to decompose (the index folds 800,000 names at start).
  const letters = ASCII.test(text)
    ? text.toLowerCase()
    : text
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(UNDECOMPOSED_LETTER, (c) => UNDECOMPOSED[c]!);
  return letters.replace(/[\s\-‐–—.,'’`"()[\]/]+/g, ' ').trim();
}
