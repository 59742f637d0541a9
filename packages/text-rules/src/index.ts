// Text rules every context applies to names, notes and descriptions, written once (pure: domain code may
// import it). Errors are keyed by field, as the error body's `errors` map is.

/** Field name → messages (the shape of the error body's `errors`). */
export type FieldErrors = Record<string, string[]>;

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators: never part of a name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const hasControlCharacters = (value: string): boolean => CONTROL.test(value);

/** Adds `message` under `field`, if there is a message. */
export function addFieldError(errors: FieldErrors, field: string, message: string | undefined): void {
  if (message) (errors[field] ??= []).push(message);
}

/**
 * Why text is longer than `maxLength` characters (code points, as the contract validator counts), worded
 * like the validator; undefined when it fits or no maximum is given. Holds the contract's `maxLength` in
 * the code too (docs/decisions/0107).
 */
export function tooLong(value: string, maxLength: number | undefined): string | undefined {
  if (maxLength === undefined || value.length <= maxLength) return undefined; // code points ≤ UTF-16 units
  return [...value].length > maxLength ? `must NOT have more than ${maxLength} characters` : undefined;
}

/**
 * A required single-line text (a name): trimmed; not text, blank, with control characters, or longer than
 * `maxLength` is a problem.
 */
export function requiredText(value: string, maxLength?: number): { value: string; problem?: string } {
  if (typeof value !== 'string') return { value: '', problem: 'must be string' };
  const trimmed = value.trim();
  if (!trimmed) return { value: trimmed, problem: 'must not be blank' };
  if (hasControlCharacters(trimmed)) return { value: trimmed, problem: 'must not contain control characters' };
  const long = tooLong(trimmed, maxLength);
  return long ? { value: trimmed, problem: long } : { value: trimmed };
}

/**
 * Optional text: trimmed, and null when absent or blank (a full replace clears what it omits). Control
 * characters are a problem; line breaks and tabs are allowed in `multiline` text (an address, a note).
 * Text longer than `maxLength`, or a value that is not text, is a problem too.
 */
export function optionalText(
  value: string | null | undefined,
  multiline = false,
  maxLength?: number,
): { value: string | null; problem?: string } {
  if (value !== undefined && value !== null && typeof value !== 'string')
    return { value: null, problem: 'must be string' };
  const trimmed = value?.trim();
  if (!trimmed) return { value: null };
  const checked = multiline ? trimmed.replace(/[\r\n\t]/g, ' ') : trimmed;
  if (hasControlCharacters(checked)) return { value: trimmed, problem: 'must not contain control characters' };
  const long = tooLong(trimmed, maxLength);
  return long ? { value: trimmed, problem: long } : { value: trimmed };
}
