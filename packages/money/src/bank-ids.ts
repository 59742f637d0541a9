// Bank identifiers money is paid to and from: the account as an IBAN (ISO 13616) and the bank's BIC
// (ISO 9362). Every market we serve (HR, SI, SK, CZ, PL) uses IBANs for domestic transfers. Written once
// for every context: employees check an employee's bank data with it, payouts the company's account a
// payment file debits (docs/decisions/0119).

// The SWIFT IBAN Registry (lengths, BBAN structures) and the national check digits of the countries that
// have them (HR, SI, CZ, SK, PL among them) come from ibantools, a maintained library that tracks the
// registry: no hand-kept table here (issue 8).
import { ValidationErrorsIBAN, getCountrySpecifications, validateIBAN } from 'ibantools';

const SPECS = getCountrySpecifications();

/**
 * What an IBAN may look like as written (the contract's `pattern`, compared by a drift test): a country
 * code, two check digits and 11 to 30 letters or digits (15 to 34 in all, which holds every registry
 * length), in either case, spaces anywhere (the print format groups by four). Beyond this shape the code
 * checks the registry's length and structure and the check digits, which no pattern can say.
 */
export const IBAN_PATTERN = /^[A-Za-z] ?[A-Za-z] ?[0-9] ?[0-9](?: ?[A-Za-z0-9]){11,30}$/;
/** What a BIC may look like as written: 4 + 2 letters + 2 (+ 3) characters, either case, spaced as an IBAN. */
export const BIC_PATTERN =
  /^[A-Za-z0-9](?: ?[A-Za-z0-9]){3}(?: ?[A-Za-z]){2}(?: ?[A-Za-z0-9]){2}(?:(?: ?[A-Za-z0-9]){3})?$/;
/** The longest IBAN and BIC text taken, spaces included (the contract's `maxLength`). */
export const IBAN_MAX_LENGTH = 42;
export const BIC_MAX_LENGTH = 14;

/** The IBAN length of a country in the registry, or undefined for a country the registry does not list. */
export function ibanLength(country: string): number | undefined {
  const spec = SPECS[country];
  return spec?.IBANRegistry && spec.chars ? spec.chars : undefined;
}

/** Every IBAN length of the registry, by country (for the test that IBAN_PATTERN's bounds hold them). */
export const registryIbanLengths = (): Record<string, number> =>
  Object.fromEntries(
    Object.keys(SPECS)
      .map((country) => [country, ibanLength(country)] as const)
      .filter((e): e is readonly [string, number] => e[1] !== undefined),
  );

/** Electronic format: no spaces, upper case (the print format groups by four with spaces). */
export const compactIban = (value: string): string => value.replace(/ +/g, '').toUpperCase();

/** ISO 7064 MOD 97-10 over the rearranged IBAN (letters as 10..35); a valid IBAN leaves 1. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' && ch <= 'Z' ? ch.charCodeAt(0) - 55 : Number(ch);
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

export type Checked = { ok: true; value: string } | { ok: false; message: string };

/** Spaces in a written identifier: any around it, at most one between two characters (IBAN_PATTERN). */
const spacingProblem = (input: string): Checked | undefined =>
  / {2}/.test(input.trim()) ? { ok: false, message: 'must have at most one space between two characters' } : undefined;

/**
 * Validates an IBAN and returns its electronic format. Letters, digits and single spaces; countries in the
 * registry must have their exact length, BBAN structure and, where the country has them, national check
 * digits; any other country code gets the general rule (15 to 34 letters and digits).
 * Check digits are always verified (MOD 97-10), and 00, 01 and 99 are refused: ISO 13616 never issues
 * them, yet 01 can pass the modulus where 98 is the real check value.
 */
export function checkIban(input: string): Checked {
  const spacing = spacingProblem(input);
  if (spacing) return spacing;
  const iban = compactIban(input);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    return { ok: false, message: 'must be an IBAN: a country code, two check digits, then letters and digits' };
  }
  const country = iban.slice(0, 2);
  const length = ibanLength(country);
  const check = iban.slice(2, 4);
  const wrongCheckDigits = { ok: false as const, message: 'has wrong check digits (not a valid IBAN)' };
  if (length) {
    if (iban.length !== length) {
      return { ok: false, message: `must have ${length} characters for ${country} (has ${iban.length})` };
    }
    const { errorCodes } = validateIBAN(iban);
    if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) {
      return { ok: false, message: `does not have the ${country} account number structure` };
    }
    if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return wrongCheckDigits;
    if (errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) {
      return { ok: false, message: `has wrong ${country} account or bank check digits (not a valid account)` };
    }
  } else if (iban.length < 15 || iban.length > 34) {
    return { ok: false, message: `must have between 15 and 34 characters (has ${iban.length})` };
  }
  if (check === '00' || check === '01' || check === '99' || ibanMod97(iban) !== 1) return wrongCheckDigits;
  return { ok: true, value: iban };
}

/** checkIban or checkBic on a text that may also be too long (where no text rule measured it before). */
export function checkBankText(kind: 'iban' | 'bic', input: string): Checked {
  const max = kind === 'iban' ? IBAN_MAX_LENGTH : BIC_MAX_LENGTH;
  if ([...input].length > max) return { ok: false, message: `must NOT have more than ${max} characters` };
  return kind === 'iban' ? checkIban(input) : checkBic(input);
}

/** Whether a value is a valid IBAN (as checkIban), for reads that only need the answer. */
export const isIban = (input: string): boolean => checkIban(input).ok;

/**
 * ISO 9362:2014 BIC: a 4-character business party prefix (letters or digits since the 2014 edition),
 * a 2-letter country code, a 2-character location code, and an optional 3-character branch code.
 * Spaces are ignored and letters upper-cased.
 */
export function checkBic(input: string): Checked {
  const spacing = spacingProblem(input);
  if (spacing) return spacing;
  const bic = input.replace(/ +/g, '').toUpperCase();
  if (bic.length !== 8 && bic.length !== 11) {
    return { ok: false, message: `must have 8 or 11 characters (has ${bic.length})` };
  }
  if (!/^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) {
    return {
      ok: false,
      message: 'must be a BIC: 4 letters or digits, a 2-letter country code, then 2 (or 5) letters or digits',
    };
  }
  return { ok: true, value: bic };
}
