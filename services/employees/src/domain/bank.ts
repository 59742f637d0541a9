// Bank identifiers of an employee: the account as an IBAN (ISO 13616) and the bank's BIC (ISO 9362).
// Every market we serve (HR, SI, SK, CZ, PL) uses IBANs for domestic transfers, so `bankAccount` is an IBAN.

/**
 * BBAN structure per country, from the SWIFT IBAN Registry (as republished in python-stdnum's
 * `iban.dat`, "generated from iban-registry_1.txt"). Notation of the registry: `<n>!n` exactly n digits,
 * `<n>!a` exactly n upper-case letters, `<n>!c` exactly n upper-case letters or digits. The IBAN's length
 * is 4 (country + check digits) plus the BBAN's.
 */
const BBAN: Readonly<Record<string, string>> = {
  AD: '4!n4!n12!c',
  AE: '3!n16!n',
  AL: '8!n16!c',
  AT: '5!n11!n',
  AZ: '4!a20!c',
  BA: '3!n3!n8!n2!n',
  BE: '3!n7!n2!n',
  BG: '4!a4!n2!n8!c',
  BH: '4!a14!c',
  BI: '5!n5!n11!n2!n',
  BR: '8!n5!n10!n1!a1!c',
  BY: '4!c4!n16!c',
  CH: '5!n12!c',
  CR: '4!n14!n',
  CY: '3!n5!n16!c',
  CZ: '4!n6!n10!n',
  DE: '8!n10!n',
  DJ: '5!n5!n11!n2!n',
  DK: '4!n9!n1!n',
  DO: '4!c20!n',
  EE: '2!n14!n',
  EG: '4!n4!n17!n',
  ES: '4!n4!n1!n1!n10!n',
  FI: '3!n11!n',
  FK: '2!a12!n',
  FO: '4!n9!n1!n',
  FR: '5!n5!n11!c2!n',
  GB: '4!a6!n8!n',
  GE: '2!a16!n',
  GI: '4!a15!c',
  GL: '4!n9!n1!n',
  GR: '3!n4!n16!c',
  GT: '4!c20!c',
  HN: '4!a20!n',
  HR: '7!n10!n',
  HU: '3!n4!n1!n15!n1!n',
  IE: '4!a6!n8!n',
  IL: '3!n3!n13!n',
  IQ: '4!a3!n12!n',
  IS: '4!n2!n6!n10!n',
  IT: '1!a5!n5!n12!c',
  JO: '4!a4!n18!c',
  KW: '4!a22!c',
  KZ: '3!n13!c',
  LB: '4!n20!c',
  LC: '4!a24!c',
  LI: '5!n12!c',
  LT: '5!n11!n',
  LU: '3!n13!c',
  LV: '4!a13!c',
  LY: '3!n3!n15!n',
  MC: '5!n5!n11!c2!n',
  MD: '2!c18!c',
  ME: '3!n13!n2!n',
  MK: '3!n10!c2!n',
  MN: '4!n12!n',
  MR: '5!n5!n11!n2!n',
  MT: '4!a5!n18!c',
  MU: '4!a2!n2!n12!n3!n3!a',
  NI: '4!a20!n',
  NL: '4!a10!n',
  NO: '4!n6!n1!n',
  OM: '3!n16!c',
  PK: '4!a16!c',
  PL: '8!n16!n',
  PS: '4!a21!c',
  PT: '4!n4!n11!n2!n',
  QA: '4!a21!c',
  RO: '4!a16!c',
  RS: '3!n13!n2!n',
  RU: '9!n5!n15!c',
  SA: '2!n18!c',
  SC: '4!a2!n2!n16!n3!a',
  SD: '2!n12!n',
  SE: '3!n16!n1!n',
  SI: '5!n8!n2!n',
  SK: '4!n6!n10!n',
  SM: '1!a5!n5!n12!c',
  SO: '4!n3!n12!n',
  ST: '8!n11!n2!n',
  SV: '4!a20!n',
  TL: '3!n14!n2!n',
  TN: '2!n3!n13!n2!n',
  TR: '5!n1!n16!c',
  UA: '6!n19!c',
  VA: '3!n15!n',
  VG: '4!a16!n',
  XK: '4!n10!n2!n',
  YE: '4!a4!n18!c',
};

const CLASS: Record<string, string> = { n: '[0-9]', a: '[A-Z]', c: '[A-Z0-9]' };

interface CountryRule {
  length: number;
  bban: RegExp;
}

function compile(spec: string): CountryRule {
  let length = 4;
  let source = '';
  for (const [, count, kind] of spec.matchAll(/(\d+)!([nac])/g)) {
    length += Number(count);
    source += `${CLASS[kind!]}{${count}}`;
  }
  return { length, bban: new RegExp(`^${source}$`) };
}

const RULES: ReadonlyMap<string, CountryRule> = new Map(Object.entries(BBAN).map(([cc, spec]) => [cc, compile(spec)]));

/** The IBAN length of a country in the registry, or undefined for a country the registry does not list. */
export const ibanLength = (country: string): number | undefined => RULES.get(country)?.length;

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
 * length and BBAN structure; any other country code gets the general rule (15 to 34 letters and digits).
 * Check digits are always verified (MOD 97-10), and 00, 01 and 99 are refused: ISO 13616 never issues
 * them, yet 01 can pass the modulus where 98 is the real check value.
 */
export function checkIban(input: string): Checked {
  const iban = compactIban(input);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    return { ok: false, message: 'must be an IBAN: a country code, two check digits, then letters and digits' };
  }
  const country = iban.slice(0, 2);
  const rule = RULES.get(country);
  if (rule) {
    if (iban.length !== rule.length) {
      return { ok: false, message: `must have ${rule.length} characters for ${country} (has ${iban.length})` };
    }
    if (!rule.bban.test(iban.slice(4))) {
      return { ok: false, message: `does not have the ${country} account number structure` };
    }
  } else if (iban.length < 15 || iban.length > 34) {
    return { ok: false, message: `must have between 15 and 34 characters (has ${iban.length})` };
  }
  const check = iban.slice(2, 4);
  if (check === '00' || check === '01' || check === '99' || ibanMod97(iban) !== 1) {
    return { ok: false, message: 'has wrong check digits (not a valid IBAN)' };
  }
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
