// Text rules every context applies to names, notes and descriptions, written once (pure: domain code may
// import it). Errors are keyed by field, as the error body's `errors` map is.

/** Field name → messages (the shape of the error body's `errors`). */
export type FieldErrors = Record<string, string[]>;

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators: never part of a name.
// Written as regex class text once, for the code's check and for the patterns the contract gives.
const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029';
/** The same without tab, line feed and carriage return, which multi-line text may hold. */
const MULTI_LINE_CONTROL_CLASS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u2028\\u2029';
/** What `String.prototype.trim` removes besides control characters: text of only these is blank. */
const BLANK_CLASS = ' \\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000\\ufeff';
const CONTROL = new RegExp(`[${CONTROL_CLASS}]`);

export const hasControlCharacters = (value: string): boolean => CONTROL.test(value);

// The contract's `pattern`s of free text (docs/decisions/0119; a drift test compares): what they let
// through, the rules below accept. They refuse control characters anywhere, even where trimming would
// have removed them, so the contract is never looser than the code.
/** Single-line text (a position, a licence plate): no control characters. */
export const SINGLE_LINE_TEXT = new RegExp(`^[^${CONTROL_CLASS}]*$`);
/** Required single-line text (a name): no control characters, and something that is not blank. */
export const NON_BLANK_SINGLE_LINE_TEXT = new RegExp(
  `^[^${CONTROL_CLASS}]*[^${CONTROL_CLASS}${BLANK_CLASS}][^${CONTROL_CLASS}]*$`,
);
/** Multi-line text (an address, a note): tabs and line breaks, no other control characters. */
export const MULTI_LINE_TEXT = new RegExp(`^[^${MULTI_LINE_CONTROL_CLASS}]*$`);
/**
 * The pattern of an optional field the write trims: blank (no value), or what `pattern` (anchored with ^
 * and $) allows with spaces around.
 */
export const blankOr = (pattern: RegExp): RegExp =>
  new RegExp(`^ *$|^ *(?:${pattern.source.replace(/^\^/, '').replace(/\$$/, '')}) *$`);

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
