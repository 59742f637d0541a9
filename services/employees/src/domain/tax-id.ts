import type { Market } from '@travel/platform';
import type { Checked } from '@travel/money';

// An employee's personal tax identification number. Where the company's market has one identifier for
// every resident with a published check rule, a resident employee's number is checked against it; the
// sources are named per rule. A non-resident's number may be one of their home country, so only the
// general shape is checked (docs/decisions/0012-employee-field-validation.md).

/** The general shape of every tax id (the contract's pattern, with a blank alternative: 0119). */
export const TAX_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9 ./-]*[A-Za-z0-9])?$/;
const GENERAL = TAX_ID_PATTERN;

/** Digits only: spaces, dashes and slashes removed, and an optional `prefix` (the country code) dropped. */
function digitsOf(value: string, prefix?: string): string {
  let compact = value.replace(/[\s/-]+/g, '').toUpperCase();
  if (prefix && compact.startsWith(prefix)) compact = compact.slice(prefix.length);
  return compact;
}

/** ISO 7064 MOD 11,10 (pure system, as used by the Croatian OIB): true when the check digit fits. */
export function mod11_10(digits: string): boolean {
  let product = 10;
  for (let i = 0; i < digits.length - 1; i++) {
    let sum = (Number(digits[i]) + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(digits[digits.length - 1]);
}

/**
 * HR — OIB (osobni identifikacijski broj): 11 digits, the last an ISO 7064 MOD 11,10 check digit.
 * Source: Zakon o osobnom identifikacijskom broju (NN 60/08) and its technical specification.
 */
export function checkOib(value: string): Checked {
  const oib = digitsOf(value, 'HR');
  if (!/^\d{11}$/.test(oib)) return { ok: false, message: 'must be an OIB: 11 digits' };
  if (!mod11_10(oib)) return { ok: false, message: 'is not a valid OIB (wrong check digit)' };
  return { ok: true, value: oib };
}

/**
 * SI — davčna številka: 8 digits, not starting with 0; the last is 11 − (Σ dᵢ·(8−i) mod 11) over the
 * first seven, where 10 is written 0 and 11 is never issued. Source: FURS; as implemented in
 * python-stdnum `si.ddv`.
 */
export function checkSiTaxNumber(value: string): Checked {
  const n = digitsOf(value, 'SI');
  if (!/^[1-9]\d{7}$/.test(n))
    return { ok: false, message: 'must be a Slovenian tax number: 8 digits, not starting with 0' };
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(n[i]) * (8 - i);
  const check = 11 - (sum % 11);
  if (check === 11 || (check === 10 ? 0 : check) !== Number(n[7])) {
    return { ok: false, message: 'is not a valid Slovenian tax number (wrong check digit)' };
  }
  return { ok: true, value: n };
}

/** PL — PESEL: 11 digits, weights 1,3,7,9,… and a real birth date. Source: python-stdnum `pl.pesel`. */
export function checkPesel(n: string): boolean {
  if (!/^\d{11}$/.test(n)) return false;
  const weights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(n[i]), 0);
  if ((10 - (sum % 10)) % 10 !== Number(n[10])) return false;
  const centuryByMonth = [1900, 2000, 2100, 2200, 1800];
  const rawMonth = Number(n.slice(2, 4));
  const year = centuryByMonth[Math.floor(rawMonth / 20)]! + Number(n.slice(0, 2));
  const month = rawMonth % 20;
  const day = Number(n.slice(4, 6));
  const date = new Date(Date.UTC(year, month - 1, day));
  return month >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** PL — NIP: 10 digits, Σ dᵢ·wᵢ mod 11 over weights 6,5,7,2,3,4,5,6,7 equals the last digit. Source: python-stdnum `pl.nip`. */
export function checkNip(n: string): boolean {
  if (!/^\d{10}$/.test(n)) return false;
  const weights = [6, 5, 7, 2, 3, 4, 5, 6, 7];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(n[i]), 0);
  return sum % 11 === Number(n[9]);
}

/**
 * PL — an individual's tax identifier is the PESEL, or the NIP for those who run a business or have no
 * PESEL (ustawa o zasadach ewidencji i identyfikacji podatników, art. 3).
 */
export function checkPlTaxId(value: string): Checked {
  const n = digitsOf(value, 'PL');
  if (n.length === 11 && /^\d+$/.test(n)) {
    return checkPesel(n)
      ? { ok: true, value: n }
      : { ok: false, message: 'is not a valid PESEL (wrong check digit or birth date)' };
  }
  if (n.length === 10 && /^\d+$/.test(n)) {
    return checkNip(n) ? { ok: true, value: n } : { ok: false, message: 'is not a valid NIP (wrong check digit)' };
  }
  return { ok: false, message: 'must be a PESEL (11 digits) or a NIP (10 digits)' };
}

/** The general shape every tax id must have: letters and digits, optionally separated by spaces, dots, slashes or dashes. */
export function checkGeneralTaxId(value: string): Checked {
  const trimmed = value.trim();
  if (!GENERAL.test(trimmed)) {
    return {
      ok: false,
      message: 'must consist of letters and digits (spaces, dots, slashes and dashes may separate them)',
    };
  }
  return { ok: true, value: trimmed };
}

/**
 * CZ and SK have no rule here on purpose: a resident's tax identifier is either the birth number (rodné
 * číslo) or, for people without one, a number the tax office assigns, which has no published check rule.
 * Checking the birth-number rule would refuse those valid identifiers.
 */
const MARKET_RULES: Partial<Record<Market, (value: string) => Checked>> = {
  HR: checkOib,
  SI: checkSiTaxNumber,
  PL: checkPlTaxId,
};

/** Whether the market has a tax-id rule for residents (HR, SI, PL). */
export const hasTaxIdRule = (market: Market): boolean => MARKET_RULES[market] !== undefined;

/** Checks a tax id for an employee of a company in `market`; the market's rule applies to residents only. */
export function checkTaxId(value: string, market: Market, resident: boolean): Checked {
  const general = checkGeneralTaxId(value);
  if (!general.ok) return general;
  const rule = resident ? MARKET_RULES[market] : undefined;
  return rule ? rule(general.value) : general;
}
