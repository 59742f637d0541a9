import type { FieldErrors } from '@travel/platform';

// Small text rules of this context (the same rules employees applies to names).

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Adds `message` under `field`, if there is a message. */
export function addFieldError(errors: FieldErrors, field: string, message: string | undefined): void {
  if (message) (errors[field] ??= []).push(message);
}

/** A required single-line text: trimmed; blank, or with control characters, is a problem. */
export function requiredText(value: string): { value: string; problem?: string } {
  const trimmed = value.trim();
  if (!trimmed) return { value: trimmed, problem: 'must not be blank' };
  if (CONTROL.test(trimmed)) return { value: trimmed, problem: 'must not contain control characters' };
  return { value: trimmed };
}

/** Optional text: trimmed, null when absent or blank. Line breaks are allowed in `multiline` text. */
export function optionalText(
  value: string | null | undefined,
  multiline = false,
): { value: string | null; problem?: string } {
  const trimmed = value?.trim();
  if (!trimmed) return { value: null };
  const checked = multiline ? trimmed.replace(/[\r\n\t]/g, ' ') : trimmed;
  return CONTROL.test(checked)
    ? { value: trimmed, problem: 'must not contain control characters' }
    : { value: trimmed };
}
