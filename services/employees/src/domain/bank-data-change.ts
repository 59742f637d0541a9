// The record of a change of an employee's bank data (docs/decisions/0106): who (the key's employee, the key,
// and the key's issuer when the key acts for someone else), when, and the old and new values masked. Masked
// when the record is made, so the log never holds an account number in full.
import type { Employee } from './employee';

/** The bank fields of an employee: the account (an IBAN) and the bank's BIC. */
export const BANK_FIELDS = ['bankAccount', 'bic'] as const;
export type BankField = (typeof BANK_FIELDS)[number];
export type BankData = Pick<Employee, BankField>;

export interface BankFieldChange {
  field: BankField;
  before: string | null;
  after: string | null;
}

export interface BankDataChange {
  id: string;
  at: Date;
  changedByEmployeeId: string;
  apiKeyId: string;
  keyIssuedByEmployeeId: string | null;
  changes: BankFieldChange[];
}

/** Who makes a write: the caller context's identity. */
export interface ChangeAuthor {
  employeeId: string;
  apiKeyId: string;
  keyIssuedByEmployeeId?: string;
}

/** An IBAN as its country code and last four characters (`CZ…5399`); short values keep only the country. */
export const maskIban = (iban: string): string =>
  iban.length > 8 ? `${iban.slice(0, 2)}…${iban.slice(-4)}` : `${iban.slice(0, 2)}…`;

/** The BIC names a bank, not a person's account: kept as it is, so a change of bank is readable. */
const masked = (field: BankField, value: string | null): string | null =>
  value === null ? null : field === 'bankAccount' ? maskIban(value) : value;

/** The record of what a write changes in the bank data, or undefined when it changes nothing there. */
export function bankDataChange(
  before: BankData,
  after: BankData,
  author: ChangeAuthor,
  at: Date,
  id: string,
): BankDataChange | undefined {
  const changes = BANK_FIELDS.filter((f) => (before[f] ?? null) !== (after[f] ?? null)).map((field) => ({
    field,
    before: masked(field, before[field] ?? null),
    after: masked(field, after[field] ?? null),
  }));
  if (changes.length === 0) return undefined;
  return {
    id,
    at,
    changedByEmployeeId: author.employeeId,
    apiKeyId: author.apiKeyId,
    keyIssuedByEmployeeId: author.keyIssuedByEmployeeId ?? null,
    changes,
  };
}
