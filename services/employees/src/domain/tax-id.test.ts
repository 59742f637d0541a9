import {
  checkGeneralTaxId,
  checkNip,
  checkOib,
  checkPesel,
  checkPlTaxId,
  checkSiTaxNumber,
  checkTaxId,
  hasTaxIdRule,
  mod11_10,
} from './tax-id';

describe('HR: OIB (ISO 7064 MOD 11,10)', () => {
  it.each(['94577403194', '33392005961', '69435151530'])('accepts %s', (oib) => {
    expect(checkOib(oib)).toEqual({ ok: true, value: oib });
  });

  it('accepts the HR prefix and separators, and stores the 11 digits', () => {
    expect(checkOib('HR 333-920-059-61')).toEqual({ ok: true, value: '33392005961' });
  });

  it.each(['33392005962', '94577403195', '69435151531'])('refuses %s (wrong check digit)', (oib) => {
    expect(checkOib(oib)).toEqual({ ok: false, message: 'is not a valid OIB (wrong check digit)' });
  });

  it.each(['3339200596', '333920059611', 'A3392005961', ''])('refuses %p (not 11 digits)', (oib) => {
    expect(checkOib(oib)).toEqual({ ok: false, message: 'must be an OIB: 11 digits' });
  });

  it('mod11_10 matches the ISO 7064 reference value (794623)', () => {
    expect(mod11_10('794623')).toBe(true);
    expect(mod11_10('794624')).toBe(false);
  });
});

describe('SI: davčna številka', () => {
  it('accepts a valid number, with an SI prefix and spaces', () => {
    expect(checkSiTaxNumber('50223054')).toEqual({ ok: true, value: '50223054' });
    expect(checkSiTaxNumber('SI 5022 3054')).toEqual({ ok: true, value: '50223054' });
  });

  it('refuses a wrong check digit', () => {
    expect(checkSiTaxNumber('50223055')).toEqual({
      ok: false,
      message: 'is not a valid Slovenian tax number (wrong check digit)',
    });
  });

  it('writes a check value of 10 as 0, and never accepts a number whose check value would be 11', () => {
    // Weights 8,7,6,5,4,3,2.  1000002·: 8 + 2·2 = 12 ≡ 1 → 11 − 1 = 10 → written 0.
    expect(checkSiTaxNumber('10000020')).toMatchObject({ ok: true });
    // 1000001·: 8 + 2 = 10 → 11 − 10 = 1.
    expect(checkSiTaxNumber('10000011')).toMatchObject({ ok: true });
    // 1200000·: 8 + 2·7 = 22 ≡ 0 → 11: no digit fits, so no such number is valid.
    for (let d = 0; d <= 9; d++) expect(checkSiTaxNumber(`1200000${d}`)).toMatchObject({ ok: false });
  });

  it.each(['05022305', '5022305', '502230540', 'ABCDEFGH'])('refuses %p (not 8 digits, or a leading 0)', (value) => {
    expect(checkSiTaxNumber(value)).toEqual({
      ok: false,
      message: 'must be a Slovenian tax number: 8 digits, not starting with 0',
    });
  });
});

describe('PL: PESEL or NIP', () => {
  it.each(['44051401359', '02211307589', '02122401358'])('PESEL %s is valid', (pesel) => {
    expect(checkPesel(pesel)).toBe(true);
    expect(checkPlTaxId(pesel)).toEqual({ ok: true, value: pesel });
  });

  it('refuses a PESEL with a wrong check digit or an impossible birth date', () => {
    expect(checkPesel('44051401358')).toBe(false);
    expect(checkPesel('02381307589')).toBe(false); // month 38 → 2000s, month 18
    expect(checkPlTaxId('44051401358')).toEqual({
      ok: false,
      message: 'is not a valid PESEL (wrong check digit or birth date)',
    });
  });

  it('reads the century from the month (1800s: +80)', () => {
    // 1899-12-31, serial 0000 → check digit computed by the rule
    const body = '9992310000';
    const weights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
    const check = (10 - (weights.reduce((s, w, i) => s + w * Number(body[i]), 0) % 10)) % 10;
    expect(checkPesel(body + check)).toBe(true);
    expect(checkPesel('99023' + '10000' + '0')).toBe(false); // 1999-02-31 does not exist
  });

  it('NIP: accepts a valid one with separators and a PL prefix; refuses a wrong check digit', () => {
    expect(checkNip('8567346215')).toBe(true);
    expect(checkPlTaxId('PL 856-734-62-15')).toEqual({ ok: true, value: '8567346215' });
    expect(checkPlTaxId('8567346216')).toEqual({ ok: false, message: 'is not a valid NIP (wrong check digit)' });
  });

  it.each(['123456789', '123456789012', 'ABCDEFGHIJ'])('refuses %p (neither 10 nor 11 digits)', (value) => {
    expect(checkPlTaxId(value)).toEqual({ ok: false, message: 'must be a PESEL (11 digits) or a NIP (10 digits)' });
  });
});

describe('general shape', () => {
  it.each(['710319/2745', 'A1234567', '12 345 678', 'X-12.34', 'a'])('accepts %p', (value) => {
    expect(checkGeneralTaxId(value)).toEqual({ ok: true, value });
  });

  it.each(['-123', '123-', '12_34', '12#34', 'ö123', ' ', '//'])('refuses %p', (value) => {
    expect(checkGeneralTaxId(value)).toMatchObject({ ok: false });
  });
});

describe('checkTaxId per market and residency', () => {
  it('has rules for HR, SI and PL only', () => {
    expect(['HR', 'SI', 'SK', 'CZ', 'PL'].filter((m) => hasTaxIdRule(m as never))).toEqual(['HR', 'SI', 'PL']);
  });

  it.each([
    ['HR', '33392005962'],
    ['SI', '50223055'],
    ['PL', '44051401358'],
  ] as const)('applies the %s rule to residents', (market, invalid) => {
    expect(checkTaxId(invalid, market, true)).toMatchObject({ ok: false });
  });

  it.each([
    ['HR', '33392005962'],
    ['SI', '50223055'],
    ['PL', '44051401358'],
  ] as const)('checks only the general shape for a non-resident in %s (a home-country number)', (market, foreign) => {
    expect(checkTaxId(foreign, market, false)).toEqual({ ok: true, value: foreign });
  });

  it.each(['CZ', 'SK'] as const)(
    'checks only the general shape in %s (birth number or office-assigned number)',
    (market) => {
      expect(checkTaxId('7103192745', market, true)).toEqual({ ok: true, value: '7103192745' });
      expect(checkTaxId('1234567890', market, true)).toEqual({ ok: true, value: '1234567890' });
      expect(checkTaxId('12#4', market, true)).toMatchObject({ ok: false });
    },
  );

  it('refuses a malformed value before any market rule', () => {
    expect(checkTaxId('333#92005961', 'HR', true)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^must consist of letters and digits/),
    });
  });
});
