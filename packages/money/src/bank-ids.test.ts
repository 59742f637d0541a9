import {
  BIC_PATTERN,
  checkBic,
  checkIban,
  compactIban,
  IBAN_PATTERN,
  ibanLength,
  ibanMod97,
  registryIbanLengths,
} from './bank-ids';

// Valid IBANs are the SWIFT IBAN Registry's own examples.
const REGISTRY_EXAMPLES: Record<string, string> = {
  HR: 'HR1210010051863000160',
  SI: 'SI56263300012039086',
  SK: 'SK3112000000198742637541',
  CZ: 'CZ6508000000192000145399',
  PL: 'PL61109010140000071219812874',
  DE: 'DE89370400440532013000',
  AT: 'AT611904300234573201',
  GB: 'GB29NWBK60161331926819',
  NO: 'NO9386011117947',
  LC: 'LC55HEMM000100010012001200023015',
};

/** An IBAN with correct check digits for any country code and BBAN, to test the other rules alone. */
function withCheckDigits(country: string, bban: string): string {
  const check = String(98 - ibanMod97(`${country}00${bban}`)).padStart(2, '0');
  return `${country}${check}${bban}`;
}

describe('ibanLength (SWIFT IBAN Registry)', () => {
  it.each([
    ['HR', 21],
    ['SI', 19],
    ['SK', 24],
    ['CZ', 24],
    ['PL', 28],
    ['DE', 22],
    ['AT', 20],
    ['NO', 15],
    ['LC', 32],
  ])('%s → %i', (country, length) => {
    expect(ibanLength(country)).toBe(length);
  });

  it('is undefined for a country the registry does not list', () => {
    expect(ibanLength('US')).toBeUndefined();
  });
});

describe('checkIban', () => {
  it.each(Object.entries(REGISTRY_EXAMPLES))('accepts the registry example for %s', (_country, iban) => {
    expect(checkIban(iban)).toEqual({ ok: true, value: iban });
  });

  it('accepts the print format and lower case, and returns the electronic format', () => {
    expect(checkIban('hr12 1001 0051 8630 0016 0')).toEqual({ ok: true, value: 'HR1210010051863000160' });
    expect(compactIban(' de89 3704 0044 0532 0130 00 ')).toBe('DE89370400440532013000');
  });

  it.each([
    ['a tab', 'DE89\t370400440532013000'],
    ['a no-break space', 'DE89\u00a0370400440532013000'],
  ])('refuses %s between the groups: the print format separates them with spaces', (_what, value) => {
    expect(checkIban(value)).toEqual({
      ok: false,
      message: 'must be an IBAN: a country code, two check digits, then letters and digits',
    });
  });

  it.each(Object.entries(REGISTRY_EXAMPLES))('refuses %s with one digit changed (check digits)', (_country, iban) => {
    const last = iban.at(-1)!;
    const changed = iban.slice(0, -1) + String((Number(last) + 1) % 10);
    expect(checkIban(changed)).toEqual({ ok: false, message: 'has wrong check digits (not a valid IBAN)' });
  });

  it('refuses two swapped digits (what MOD 97 is for)', () => {
    expect(checkIban('HR1210010051863000106').ok).toBe(false);
  });

  it.each([
    ['HR', 'HR121001005186300016', 21, 20],
    ['SI', 'SI5626330001203908', 19, 18],
    ['SK', 'SK31120000001987426375411', 24, 25],
    ['CZ', 'CZ650800000019200014539', 24, 23],
    ['PL', 'PL6110901014000007121981287', 28, 27],
    ['DE', 'DE8937040044053201300', 22, 21],
    ['AT', 'AT6119043002345732011', 20, 21],
  ])('refuses a %s IBAN of the wrong length', (country, iban, expected, actual) => {
    expect(checkIban(iban)).toEqual({
      ok: false,
      message: `must have ${expected} characters for ${country} (has ${actual})`,
    });
  });

  it('refuses a BBAN with the right length but not the country structure, even with valid check digits', () => {
    const letterInGermanAccount = withCheckDigits('DE', '37040044053201300A');
    expect(checkIban(letterInGermanAccount)).toEqual({
      ok: false,
      message: 'does not have the DE account number structure',
    });
  });

  it('applies the general 15–34 rule to a country the registry does not list', () => {
    expect(checkIban(withCheckDigits('QZ', 'ABC123456789012'))).toEqual({
      ok: true,
      value: withCheckDigits('QZ', 'ABC123456789012'),
    });
    expect(checkIban(withCheckDigits('QZ', '12345678901'))).toMatchObject({ ok: true }); // 15, the shortest
    expect(checkIban(withCheckDigits('QZ', '1'.repeat(30)))).toMatchObject({ ok: true }); // 34, the longest
    expect(checkIban(withCheckDigits('QZ', '1234567890'))).toEqual({
      ok: false,
      message: 'must have between 15 and 34 characters (has 14)',
    });
    expect(checkIban(withCheckDigits('QZ', '1'.repeat(31)))).toEqual({
      ok: false,
      message: 'must have between 15 and 34 characters (has 35)',
    });
  });

  it.each(['00', '01', '99'])('refuses check digits %s, which ISO 13616 never issues', (check) => {
    // HR98… is valid (its account passes the national ISO 7064 MOD 11,10 check too), and 01 ≡ 98 (mod 97),
    // so HR01… passes the modulus: only the range rule catches it.
    const bban = '10010051863007827';
    expect(checkIban(`HR98${bban}`)).toMatchObject({ ok: true });
    expect(checkIban(`HR${check}${bban}`)).toEqual({ ok: false, message: 'has wrong check digits (not a valid IBAN)' });
  });

  it('refuses an account whose national check digit is wrong, even with valid IBAN check digits', () => {
    // Croatian account numbers carry ISO 7064 MOD 11,10 check digits: the registry example's account
    // 1863000160 with its last digit changed to 4 fails that check, whatever the IBAN's own check digits.
    const iban = withCheckDigits('HR', '10010051863000164');
    expect(checkIban(iban)).toEqual({
      ok: false,
      message: 'has wrong HR account or bank check digits (not a valid account)',
    });
  });

  it.each([
    ['empty', ''],
    ['no country', '1210010051863000160'],
    ['digits as country', '121210010051863000160'],
    ['letters as check digits', 'HRAB10010051863000160'],
    ['punctuation', 'HR12-1001-0051-8630-0016-0'],
    ['a non-ASCII letter', 'HR1210010051863000Č60'],
  ])('refuses %s', (_what, value) => {
    expect(checkIban(value)).toEqual({
      ok: false,
      message: 'must be an IBAN: a country code, two check digits, then letters and digits',
    });
  });
});

describe('checkBic (ISO 9362)', () => {
  it.each([
    ['ZABAHR2X', 'ZABAHR2X'],
    ['ZABAHR2XXXX', 'ZABAHR2XXXX'],
    ['zabahr2x', 'ZABAHR2X'],
    ['ABNA BE 2A', 'ABNABE2A'],
    ['DEUTDEFF500', 'DEUTDEFF500'],
    ['1234HR2X', '1234HR2X'], // a party prefix with digits: allowed since ISO 9362:2014
  ])('accepts %p as %p', (input, value) => {
    expect(checkBic(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['7 characters', 'ZABAHR2', 'must have 8 or 11 characters (has 7)'],
    ['9 characters', 'ZABAHR2XX', 'must have 8 or 11 characters (has 9)'],
    ['12 characters', 'ZABAHR2XXXXX', 'must have 8 or 11 characters (has 12)'],
  ])('refuses %s', (_what, value, message) => {
    expect(checkBic(value)).toEqual({ ok: false, message });
  });

  it.each([
    ['a digit in the country code', 'ZABAH12X'],
    ['punctuation', 'ZABA-R2X'],
    ['a non-ASCII letter', 'ZABAHŽ2X'],
  ])('refuses %s', (_what, value) => {
    expect(checkBic(value)).toMatchObject({ ok: false, message: expect.stringMatching(/^must be a BIC/) });
  });
});

// The contract gives these patterns (services' contract tests compare); what a pattern lets through must
// reach the checks above, and what it refuses must be refused by them: the code and the contract agree.
describe("IBAN_PATTERN and BIC_PATTERN (the contract's patterns)", () => {
  it('holds every IBAN length of the registry (15 to 34)', () => {
    const lengths = Object.values(registryIbanLengths());
    expect(lengths.length).toBeGreaterThan(70);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(34);
  });

  it.each([
    'HR1210010051863000160',
    'hr12 1001 0051 8630 0016 0',
    'CZ65 0800 0000 1920 0014 5399',
    'NO9386011117947',
    'LC55HEMM000100010012001200023015',
  ])('lets %p through, and checkIban accepts it', (value) => {
    expect(IBAN_PATTERN.test(value)).toBe(true);
    expect(checkIban(value).ok).toBe(true);
  });

  it.each([
    '',
    'HR12',
    'HR12-1001-0051-8630-0016-0',
    'HR12\t10010051863000160',
    '12HR10010051863000160',
    `QZ00${'1'.repeat(31)}`,
    'HR1210010051863000Č60',
    'HR12  1001 0051 8630 0016 0',
  ])('refuses %p, and so does checkIban', (value) => {
    expect(IBAN_PATTERN.test(value)).toBe(false);
    expect(checkIban(value).ok).toBe(false);
  });

  it.each(['ZABAHR2X', 'zaba hr 2x xxx', '1234HR2X', 'DEUTDEFF500'])('BIC %p passes both', (value) => {
    expect(BIC_PATTERN.test(value)).toBe(true);
    expect(checkBic(value).ok).toBe(true);
  });

  it.each(['ZABAHR2', 'ZABAH12X', 'ZABA-R2X', 'ZABAHR2XXXXX', 'ZABA\tHR2X', 'ZABA  HR2X'])(
    'BIC %p fails both',
    (value) => {
      expect(BIC_PATTERN.test(value)).toBe(false);
      expect(checkBic(value).ok).toBe(false);
    },
  );

  it('spaces around: the code trims them, the pattern refuses them (the contract is never looser)', () => {
    expect(checkIban(' CZ65 0800 0000 1920 0014 5399 ')).toMatchObject({ ok: true });
    expect(IBAN_PATTERN.test(' CZ65 0800 0000 1920 0014 5399 ')).toBe(false);
    expect(checkBic(' ZABAHR2X ')).toMatchObject({ ok: true });
    expect(BIC_PATTERN.test(' ZABAHR2X ')).toBe(false);
  });
});
