// Small text rules shared by the records of this context.

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators: never part of a name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const hasControlCharacters = (value: string): boolean => CONTROL.test(value);

/** A regular expression that matches `text` literally (for `$regex` with user input). */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** At most this many words of a search are used; the rest are ignored (bounded query cost). */
export const MAX_SEARCH_TERMS = 5;

/** The words of a free-text search, each to be matched literally somewhere in a name. */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  const words = q.trim().split(/\s+/).filter(Boolean);
  return [...new Set(words.map((w) => w.toLowerCase()))].slice(0, MAX_SEARCH_TERMS);
}

/**
 * A filter where every word of `q` occurs (case-insensitively, literally) in at least one of `fields`.
 * Plain data: the caller adds the tenant scope.
 */
export function textSearchFilter(q: string | undefined, fields: readonly string[]): Record<string, unknown> {
  const terms = searchTerms(q);
  if (terms.length === 0) return {};
  return {
    $and: terms.map((term) => ({
      $or: fields.map((field) => ({ [field]: { $regex: escapeRegex(term), $options: 'i' } })),
    })),
  };
}

/** The key a case-insensitive uniqueness rule compares (trimmed, upper-cased with the root locale). */
export const codeKey = (code: string): string => code.trim().toUpperCase();
