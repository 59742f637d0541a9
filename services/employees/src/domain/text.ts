import type { FieldErrors } from '@travel/platform';

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

/** The key a case-insensitive uniqueness rule compares (trimmed, upper-cased with the root locale). */
export const codeKey = (code: string): string => code.trim().toUpperCase();

/** Adds `message` under `field`, if there is a message. */
export function addFieldError(errors: FieldErrors, field: string, message: string | undefined): void {
  if (message) (errors[field] ??= []).push(message);
}

/** A required single-line text (a name): trimmed; blank, or with control characters, is a problem. */
export function requiredText(value: string): { value: string; problem?: string } {
  const trimmed = value.trim();
  if (!trimmed) return { value: trimmed, problem: 'must not be blank' };
  if (hasControlCharacters(trimmed)) return { value: trimmed, problem: 'must not contain control characters' };
  return { value: trimmed };
}

/**
 * Optional text: trimmed, and null when absent or blank (a full replace clears what it omits). Control
 * characters are a problem; line breaks and tabs are allowed in `multiline` text (an address, a description).
 */
export function optionalText(
  value: string | null | undefined,
  multiline = false,
): { value: string | null; problem?: string } {
  const trimmed = value?.trim();
  if (!trimmed) return { value: null };
  const checked = multiline ? trimmed.replace(/[\r\n\t]/g, ' ') : trimmed;
  return hasControlCharacters(checked)
    ? { value: trimmed, problem: 'must not contain control characters' }
    : { value: trimmed };
}
