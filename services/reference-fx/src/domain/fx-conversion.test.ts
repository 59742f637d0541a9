import { decimal } from '@travel/money';
import { convert, decideRate, toBase, type AppliedRate } from './fx-conversion';
import { PROVIDER_PROFILES, providerOfMarket } from './fx-providers';

const ecbUsd: AppliedRate = {
  provider: 'ECB',
  currency: 'USD',
  baseCurrency: 'EUR',
  direction: 'ForeignPerBase',
  rate: '1.1596',
  units: 1,
  date: '2026-11-20',
};
const cnbJpy: AppliedRate = {
  provider: 'CNB',
  currency: 'JPY',
  baseCurrency: 'CZK',
  direction: 'BasePerForeign',
  rate: '13.744',
  units: 100,
  date: '2026-11-20',
};

describe('providers by market (SPEC, API-SURFACE)', () => {
  it.each([
    ['HR', 'HNB', 'EUR', 'ForeignPerBase'],
    ['SI', 'ECB', 'EUR', 'ForeignPerBase'],
    ['SK', 'ECB', 'EUR', 'ForeignPerBase'],
    ['CZ', 'CNB', 'CZK', 'BasePerForeign'],
    ['PL', 'NBP', 'PLN', 'BasePerForeign'],
  ] as const)('%s uses %s, base %s, %s', (market, provider, base, direction) => {
    expect(providerOfMarket(market)).toMatchObject({ provider, baseCurrency: base, direction });
  });
});

describe('conversion into the base currency', () => {
  it('ForeignPerBase divides: 100 USD at 1.1596 USD per EUR is 86.24 EUR', () => {
    // 100 / 1.1596 = 86.2366…
    expect(toBase(decimal('100'), decimal('1.1596'), 'ForeignPerBase', 'EUR').toString()).toBe('86.24');
  });

  it('BasePerForeign multiplies per unit after the multiplier: 1,000 JPY at 13.744 CZK per 100 JPY is 137.44 CZK', () => {
    const c = convert(decimal('1000'), PROVIDER_PROFILES.CNB, { kind: 'official', rate: cnbJpy }, '2026-11-21');
    expect(c).toMatchObject({
      baseCurrency: 'CZK',
      units: 100,
      direction: 'BasePerForeign',
      rateDate: '2026-11-20',
      source: 'CNB',
    });
    expect(c.baseAmount.toString()).toBe('137.44');
    expect(c.rate!.toString()).toBe('13.744');
  });

  it('rounds once, half-up, at the end', () => {
    expect(toBase(decimal('0.05'), decimal('1.1596'), 'ForeignPerBase', 'EUR').toString()).toBe('0.04');
    // 3 × 0.125 CZK per unit = 0.375 → 0.38 (half-up), not 0.37 (half-even)
    expect(toBase(decimal('3'), decimal('0.125'), 'BasePerForeign', 'CZK').toString()).toBe('0.38');
  });

  it('the base currency itself is not converted and has no provenance', () => {
    const decision = decideRate({
      profile: PROVIDER_PROFILES.HNB,
      currency: 'EUR',
      date: '2026-11-20',
      official: null,
    });
    expect(decision).toEqual({ kind: 'same-currency' });
    const c = convert(decimal('12.5'), PROVIDER_PROFILES.HNB, { kind: 'same-currency' }, '2026-11-20');
    expect(c).toMatchObject({ rate: null, units: null, direction: null, rateDate: null, source: null });
    expect(c.baseAmount.toString()).toBe('12.5');
  });
});

describe('the manual-rate rule (SPEC: honoured only when the provider publishes no rate for the date)', () => {
  const profile = PROVIDER_PROFILES.ECB;

  it('an official rate exists: a manual rate is refused (EXCHANGE_RATE_UNAVAILABLE keyed manualRate)', () => {
    const d = decideRate({
      profile,
      currency: 'USD',
      date: '2026-11-21',
      official: ecbUsd,
      manualRate: decimal('1.2'),
    });
    expect(d).toMatchObject({ kind: 'unavailable', field: 'manualRate' });
  });

  it('no official rate: the manual rate is used, in the provider direction, with MANUAL provenance', () => {
    const d = decideRate({
      profile,
      currency: 'RSD',
      date: '2026-11-21',
      official: null,
      manualRate: decimal('117.2'),
    });
    expect(d).toEqual({ kind: 'manual', rate: decimal('117.2') });
    const c = convert(decimal('1172'), profile, d as Extract<typeof d, { kind: 'manual' }>, '2026-11-21');
    expect(c).toMatchObject({ source: 'MANUAL', rateDate: '2026-11-21', direction: 'ForeignPerBase', units: 1 });
    expect(c.baseAmount.toString()).toBe('10');
    const cz = convert(decimal('10'), PROVIDER_PROFILES.CNB, { kind: 'manual', rate: decimal('0.198') }, '2026-11-21');
    expect(cz.baseAmount.toString()).toBe('1.98');
  });

  it('neither: EXCHANGE_RATE_UNAVAILABLE keyed currency', () => {
    expect(decideRate({ profile, currency: 'RSD', date: '2026-11-21', official: null })).toMatchObject({
      kind: 'unavailable',
      field: 'currency',
    });
  });

  it('an official rate and no manual rate: the official one', () => {
    expect(decideRate({ profile, currency: 'USD', date: '2026-11-21', official: ecbUsd })).toEqual({
      kind: 'official',
      rate: ecbUsd,
    });
  });
});
