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

/** A required single-line text (a name): trimmed; blank, or with control characters, is a problem. */
export function requiredText(value: string): { value: string; problem?: string } {
  const trimmed = value.trim();
  if (!trimmed) return { value: trimmed, problem: 'must not be blank' };
  if (hasControlCharacters(trimmed)) return { value: trimmed, problem: 'must not contain control characters' };
  return { value: trimmed };
}

/**
 * Optional text: trimmed, and null when absent or blank (a full replace clears what it omits). Control
 * characters are a problem; line breaks and tabs are allowed in `multiline` text (an address, a note).
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
