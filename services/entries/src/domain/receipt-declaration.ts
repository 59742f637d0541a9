// A missing receipt, declared (issue 39 §4, docs/decisions/0204): the entry's own employee states, with
// their own API key, why an expense has no receipt. "Signed": the key used is kept, and a digest binds the
// declaration to the expense's kind, date and amount, so a declaration never outlives the expense it was
// made for (a change of those voids it; the write that changes them removes it).
import { createHash } from 'node:crypto';
import type { FieldErrors } from '@travel/platform';
import { optionalText } from '@travel/text-rules';

export interface MissingReceiptDeclaration {
  reason: string;
  declaredByEmployeeId: string;
  /** The id of the API key the declaration was made with. */
  apiKeyId: string;
  declaredAt: Date;
  /** sha256 (hex) over the expense's id, kind, date, amount and currency and the declaration's own fields. */
  digest: string;
}

export const REASON_MAX_LENGTH = 500;

/** What of an expense a declaration is bound to (declared here: expense.ts stores the declaration). */
export interface DeclaredExpense {
  _id: string;
  kind: string;
  date: string;
  amount: string;
  currencyCode: string;
}

export function declarationDigest(
  x: DeclaredExpense,
  d: Omit<MissingReceiptDeclaration, 'digest'>,
): string {
  const bound = [
    x._id,
    x.kind,
    x.date,
    x.amount,
    x.currencyCode,
    d.reason,
    d.declaredByEmployeeId,
    d.apiKeyId,
    new Date(d.declaredAt).toISOString(),
  ];
  return createHash('sha256').update(JSON.stringify(bound)).digest('hex');
}

/** Whether the declaration was made for the expense as it is now. */
export const declarationHolds = (x: DeclaredExpense, d: MissingReceiptDeclaration): boolean =>
  declarationDigest(x, d) === d.digest;

/** The reason as stored: trimmed, 1–500 characters, one line of text. */
export function declarationReason(reason: unknown): { reason?: string; errors: FieldErrors } {
  const checked = optionalText(typeof reason === 'string' ? reason : undefined, true, REASON_MAX_LENGTH);
  if (checked.problem) return { errors: { reason: [checked.problem] } };
  if (!checked.value) return { errors: { reason: ['is required (1–500 characters)'] } };
  return { reason: checked.value, errors: {} };
}

/** True when the fields a declaration is bound to differ between two versions of an expense. */
export const boundFieldsChanged = (a: DeclaredExpense, b: DeclaredExpense): boolean =>
  a.kind !== b.kind || a.date !== b.date || a.amount !== b.amount || a.currencyCode !== b.currencyCode;
