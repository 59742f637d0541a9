// Bank identifiers of an employee: the account as an IBAN (ISO 13616) and the bank's BIC (ISO 9362).
// Every market we serve (HR, SI, SK, CZ, PL) uses IBANs for domestic transfers, so `bankAccount` is an IBAN.

// The SWIFT IBAN Registry (lengths, BBAN structures) and the national check digits of the countries that
// have them (HR, SI, CZ, SK, PL among them) come from ibantools, a maintained library that tracks the
// registry: no hand-kept table here (issue 8).
import { ValidationErrorsIBAN, getCountrySpecifications, validateIBAN } from 'ibantools';

const SPECS = getCountrySpecifications();

/** The IBAN length of a country in the registry, or undefined for a country the registry does not list. */
export function ibanLength(country: string): number | undefined {
  const spec = SPECS[country];
  return spec?.IBANRegistry && spec.chars ? spec.chars : undefined;
}

/** Electronic format: no spaces, upper case (the print format groups by four with spaces). */
export const compactIban = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

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

/**
 * Validates an IBAN and returns its electronic format. Countries in the registry must have their exact
 * length, BBAN structure and, where the country has them, national check digits; any other country code
 * gets the general rule (15 to 34 letters and digits).
 * Check digits are always verified (MOD 97-10), and 00, 01 and 99 are refused: ISO 13616 never issues
 * them, yet 01 can pass the modulus where 98 is the real check value.
 */
export function checkIban(input: string): Checked {
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

/**
 * ISO 9362:2014 BIC: a 4-character business party prefix (letters or digits since the 2014 edition),
 * a 2-letter country code, a 2-character location code, and an optional 3-character branch code.
 * Spaces are ignored and letters upper-cased.
 */
export function checkBic(input: string): Checked {
  const bic = input.replace(/\s+/g, '').toUpperCase();
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
