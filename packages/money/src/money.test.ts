import {
  CURRENCY_CODES,
  Decimal,
  Money,
  WireFormatError,
  decimal,
  minorDigits,
  parseWireAmount,
  parseWireDecimal,
  roundTo,
  roundToCurrency,
  sum,
  toWireAmount,
  toWireNumber,
  UnknownCurrencyError,
} from './index';

describe('currencies (ISO 4217 minor units)', () => {
  it.each([
    ['EUR', 2],
    ['CZK', 2],
    ['PLN', 2],
    ['HUF', 2],
    ['USD', 2],
    ['JPY', 0],
    ['ISK', 0],
    ['KRW', 0],
    ['KWD', 3],
    ['BHD', 3],
  ])('%s has %i minor digits', (code, digits) => {
    expect(minorDigits(code)).toBe(digits);
  });

  it('refuses a code it does not know (and XDR, which is not a currency of payment)', () => {
    expect(() => minorDigits('XYZ')).toThrow(UnknownCurrencyError);
    expect(() => minorDigits('XDR')).toThrow(UnknownCurrencyError);
    expect(() => minorDigits('eur')).toThrow(UnknownCurrencyError);
  });

  it('knows every currency the four FX providers quote for payments', () => {
    for (const code of 'AUD BRL CAD CHF CNY DKK GBP HKD IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP RON SEK SGD THB TRY USD ZAR BAM CZK HUF PLN EUR UAH'.split(
      ' ',
    )) {
      expect(CURRENCY_CODES).toContain(code);
    }
  });
});

describe('rounding modes', () => {
  it.each([
    // value, HalfUp, HalfEven, HalfDown, Up, Down, Ceiling, Floor (to 2 places)
    ['2.345', '2.35', '2.34', '2.34', '2.35', '2.34', '2.35', '2.34'],
    ['2.355', '2.36', '2.36', '2.35', '2.36', '2.35', '2.36', '2.35'],
    ['2.341', '2.34', '2.34', '2.34', '2.35', '2.34', '2.35', '2.34'],
    ['-2.345', '-2.35', '-2.34', '-2.34', '-2.35', '-2.34', '-2.34', '-2.35'],
    ['-2.341', '-2.34', '-2.34', '-2.34', '-2.35', '-2.34', '-2.34', '-2.35'],
    ['2.34', '2.34', '2.34', '2.34', '2.34', '2.34', '2.34', '2.34'],
  ])('%s', (value, halfUp, halfEven, halfDown, up, down, ceiling, floor) => {
    const r = (mode: Parameters<typeof roundTo>[2]) => roundTo(value, 2, mode).toFixed(2);
    expect(r('HalfUp')).toBe(halfUp);
    expect(r('HalfEven')).toBe(halfEven);
    expect(r('HalfDown')).toBe(halfDown);
    expect(r('Up')).toBe(up);
    expect(r('Down')).toBe(down);
    expect(r('Ceiling')).toBe(ceiling);
    expect(r('Floor')).toBe(floor);
  });

  it('rounds 1.005 half-up to 1.01 (binary floating point gives 1.00)', () => {
    expect((Math.round(1.005 * 100) / 100).toFixed(2)).toBe('1.00');
    expect(roundTo('1.005', 2, 'HalfUp').toFixed(2)).toBe('1.01');
  });

  it('rounds to the currency: the cent for EUR, the yen for JPY, the fils for KWD', () => {
    expect(roundToCurrency('10.125', 'EUR', 'HalfUp').toString()).toBe('10.13');
    expect(roundToCurrency('1200.5', 'JPY', 'HalfUp').toString()).toBe('1201');
    expect(roundToCurrency('1200.5', 'JPY', 'HalfEven').toString()).toBe('1200');
    expect(roundToCurrency('1.23456', 'KWD', 'Down').toString()).toBe('1.234');
  });

  it('refuses a fractional binary float as input', () => {
    expect(() => roundTo(0.1 as never, 2, 'HalfUp')).toThrow(RangeError);
    expect(roundTo(3, 2, 'HalfUp').toString()).toBe('3');
  });
});

describe('wire amounts', () => {
  it('reads JSON numbers with at most the minor digits exactly', () => {
    const parsed = JSON.parse('{"a": 0.1, "b": 0.2, "c": 1234567890123.45, "d": 12.5}');
    expect(parseWireAmount(parsed.a, 'EUR').plus(parseWireAmount(parsed.b, 'EUR')).toString()).toBe('0.3');
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(parseWireAmount(parsed.c, 'EUR').toFixed(2)).toBe('1234567890123.45');
    expect(parseWireAmount(parsed.d, 'EUR').toString()).toBe('12.5');
    expect(parseWireAmount(1200, 'JPY').toString()).toBe('1200');
  });

  it('refuses more places than the currency has', () => {
    expect(() => parseWireAmount(12.345, 'EUR')).toThrow('must have at most 2 decimal places');
    expect(() => parseWireAmount(12.5, 'JPY')).toThrow('must be a whole number');
    expect(parseWireAmount(12.345, 'KWD').toString()).toBe('12.345');
  });

  it('reads raw text exactly, trailing zeros counted as written', () => {
    expect(parseWireAmount('12.50', 'EUR').toFixed(2)).toBe('12.50');
    expect(() => parseWireAmount('12.500', 'EUR')).toThrow('at most 2 decimal places');
    expect(parseWireAmount('1.5e1', 'JPY').toString()).toBe('15');
    expect(() => parseWireAmount('15e-3', 'EUR')).toThrow();
    // 17 significant digits as text stay exact (a double would lose the last ones).
    expect(parseWireDecimal('12345678901234.567').toString()).toBe('12345678901234.567');
  });

  it('refuses what is not a JSON number', () => {
    for (const bad of [
      '',
      ' 1',
      '1,5',
      '0x10',
      'NaN',
      '+1',
      '01',
      '1.',
      '.5',
      null,
      undefined,
      true,
      {},
      NaN,
      Infinity,
    ]) {
      expect(() => parseWireAmount(bad, 'EUR')).toThrow(WireFormatError);
    }
  });

  it('refuses a number with more significant digits than a double keeps', () => {
    expect(() => parseWireDecimal(12345678901234.56)).toThrow('at most 15 significant digits');
    expect(() => parseWireDecimal(1e21)).toThrow('significant digits');
    expect(parseWireDecimal(123456789012.345).toString()).toBe('123456789012.345');
  });

  it('checks sign when asked', () => {
    expect(() => parseWireDecimal(0, { positive: true })).toThrow('greater than 0');
    expect(() => parseWireDecimal(-1, { nonNegative: true })).toThrow('must not be negative');
    expect(parseWireDecimal(-0, { nonNegative: true }).toString()).toBe('0');
  });

  it('writes the decimal digits back as a JSON number', () => {
    expect(JSON.stringify({ amount: toWireAmount(decimal('1234567890123.45'), 'EUR') })).toBe(
      '{"amount":1234567890123.45}',
    );
    expect(JSON.stringify({ amount: toWireAmount(decimal('0.30'), 'EUR') })).toBe('{"amount":0.3}');
    expect(toWireNumber(decimal('-0'))).toBe(0);
    expect(toWireNumber(decimal('0.17273'))).toBe(0.17273);
  });

  it('refuses to write an unrounded amount or one a double cannot carry', () => {
    expect(() => toWireAmount(decimal('1.005'), 'EUR')).toThrow('round it first');
    expect(() => toWireNumber(decimal('12345678901234567.1'))).toThrow('without loss');
  });
});

describe('Money', () => {
  it('adds and subtracts exactly, only in one currency', () => {
    const a = Money.fromWire(0.1, 'EUR');
    const b = Money.fromWire(0.2, 'EUR');
    expect(a.plus(b).toWire()).toBe(0.3);
    expect(a.minus(b).toString()).toBe('-0.10');
    expect(() => a.plus(Money.of(1, 'CZK'))).toThrow('do not mix');
    expect(sum([a, b, Money.of('1.01', 'EUR')], 'EUR').toString()).toBe('1.31');
  });

  it('multiplies and divides with a named rounding mode', () => {
    const m = Money.of('10.00', 'EUR');
    expect(m.times('0.25', 'HalfUp').toString()).toBe('2.50');
    expect(m.dividedBy(3, 'HalfUp').toString()).toBe('3.33');
    expect(m.dividedBy(3, 'Up').toString()).toBe('3.34');
    expect(Money.of(45, 'PLN').times('1.5', 'HalfUp').toString()).toBe('67.50');
  });

  it('refuses an exact amount with too many places, rounds only when asked', () => {
    expect(() => Money.of('1.005', 'EUR')).toThrow(RangeError);
    expect(Money.rounded('1.005', 'EUR', 'HalfUp').toString()).toBe('1.01');
    expect(Money.rounded('1.005', 'EUR', 'HalfEven').toString()).toBe('1.00');
  });

  it('allocates so the parts sum to the whole', () => {
    const parts = Money.of('100.00', 'EUR').allocate([1, 1, 1]);
    expect(parts.map(String)).toEqual(['33.34', '33.33', '33.33']);
    expect(sum(parts, 'EUR').toString()).toBe('100.00');
    expect(Money.of('0.05', 'EUR').allocate([3, 7]).map(String)).toEqual(['0.02', '0.03']); // 1.5 and 3.5 units: a tie, earliest first
    expect(Money.of('-10.00', 'EUR').allocate([1, 2]).map(String)).toEqual(['-3.33', '-6.67']);
    expect(Money.of(1000, 'JPY').allocate([1, 2]).map(String)).toEqual(['333', '667']);
    expect(() => Money.of(1, 'EUR').allocate([0, 0])).toThrow(RangeError);
  });

  it('serializes to the wire', () => {
    expect(JSON.stringify(Money.of('12.50', 'EUR'))).toBe('{"amount":12.5,"currency":"EUR"}');
    expect(Money.of('12.50', 'EUR').equals(Money.fromWire('12.5', 'EUR'))).toBe(true);
    expect(new Decimal('1').isZero()).toBe(false);
  });
});
