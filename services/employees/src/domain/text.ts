export { addFieldError, hasControlCharacters, optionalText, requiredText, tooLong } from '@travel/text-rules';

// Text rules of this context (search and codes); the general ones come from @travel/text-rules.

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

/** The key a case-insensitive uniqueness rule compares (trimmed, upper-cased with the root locale). */
export const codeKey = (code: string): string => code.trim().toUpperCase();
