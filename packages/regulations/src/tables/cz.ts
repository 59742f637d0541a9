// Czechia: zákoník práce (zákon č. 262/2006 Sb.) §163, §170, §179, §180 and the yearly MPSV decree that
// sets the domestic stravné, the rate per km and the average fuel prices. Figures from
// ../shared/research/REGULATIONS.md. The foreign base rates (MF decree, 373/2024 Sb. for 2025, 489/2025 Sb.
// for 2026) are those of the research's second pass; a country it marks UNVERIFIED (SI, GB, others) is
// absent, so unknown.
import type { ForeignRate, MarketTables } from '../types';

const ZP = 'Zákon č. 262/2006 Sb., zákoník práce';
const Y2025 = 'Vyhláška č. 475/2024 Sb.';
const Y2026 = 'Vyhláška č. 573/2025 Sb.';
const F2025 = 'Vyhláška č. 373/2024 Sb.';
const F2026 = 'Vyhláška č. 489/2025 Sb.';
const LISTS = 'auditor.eu travel allowances 2025 / 2026; behounek.eu';
const DERIVED_2026 = 'derived: absent from the 2026 change list of vyhl. 489/2025 Sb. (auditor.eu)';
const DERIVED_BOTH = 'derived: 2024 list; absent from the 2025 and 2026 change lists';

/** One country's base rate in 2025 and 2026 (research, second pass), each year with where it was read. */
const yearly = (
  countryCode: string,
  currency: string,
  y2025: [string, string],
  y2026: [string, string],
): ForeignRate[] => [
  {
    market: 'CZ',
    countryCode,
    amount: y2025[0],
    currency,
    effectiveFrom: '2025-01-01',
    effectiveTo: '2025-12-31',
    source: { act: F2025, provision: null, reportedBy: y2025[1] },
  },
  {
    market: 'CZ',
    countryCode,
    amount: y2026[0],
    currency,
    effectiveFrom: '2026-01-01',
    effectiveTo: '2026-12-31',
    source: { act: F2026, provision: null, reportedBy: y2026[1] },
  },
];

// Domestic bands (§163(1)): 5 to 12 hours, more than 12 up to 18 hours, more than 18 hours.
const bands = (a: [string, string], b: [string, string], c: [string, string]) => [
  {
    id: '5-12h',
    from: { hours: 5, inclusive: true },
    to: { hours: 12, inclusive: true },
    amount: a[0],
    publicSectorMaximum: a[1],
  },
  {
    id: '>12-18h',
    from: { hours: 12, inclusive: false },
    to: { hours: 18, inclusive: true },
    amount: b[0],
    publicSectorMaximum: b[1],
  },
  { id: '>18h', from: { hours: 18, inclusive: false }, to: null, amount: c[0], publicSectorMaximum: c[1] },
];

const domesticMeals = {
  kind: 'perMealByBand' as const,
  of: 'bandAmount' as const,
  byBand: {
    '5-12h': { Breakfast: '70', Lunch: '70', Dinner: '70' },
    '>12-18h': { Breakfast: '35', Lunch: '35', Dinner: '35' },
    '>18h': { Breakfast: '25', Lunch: '25', Dinner: '25' },
  },
  text: 'For each free meal the stravné is reduced by up to 70 % (5–12 h), 35 % (12–18 h) or 25 % (over 18 h) (§163(2)).',
};

export const CZ: MarketTables = {
  market: 'CZ',
  domestic: [
    {
      market: 'CZ',
      effectiveFrom: '2025-01-01',
      effectiveTo: '2025-12-31',
      currency: 'CZK',
      bands: bands(['148', '177'], ['225', '271'], ['353', '422']),
      mealReduction: domesticMeals,
      source: { act: `${Y2025}; ${ZP}`, provision: '§163' },
    },
    {
      market: 'CZ',
      effectiveFrom: '2026-01-01',
      effectiveTo: '2026-12-31',
      currency: 'CZK',
      bands: bands(['155', '185'], ['236', '284'], ['370', '442']),
      mealReduction: domesticMeals,
      source: { act: `${Y2026}; ${ZP}`, provision: '§163' },
    },
  ],
  foreignRules: [
    {
      market: 'CZ',
      effectiveFrom: null,
      effectiveTo: null,
      // §170(1), per calendar day of time abroad: at least 1 h up to 12 h a third, more than 12 h up to 18 h
      // two thirds, more than 18 h the full base rate. Under 1 h abroad in a day pays no foreign stravné
      // and counts toward the domestic part (the engine's calendar-day partition, docs/decisions/0123).
      bands: [
        {
          id: '1-12h',
          from: { hours: 1, inclusive: true },
          to: { hours: 12, inclusive: true },
          amount: null,
          fraction: '1/3',
        },
        {
          id: '>12-18h',
          from: { hours: 12, inclusive: false },
          to: { hours: 18, inclusive: true },
          amount: null,
          fraction: '2/3',
        },
        { id: '>18h', from: { hours: 18, inclusive: false }, to: null, amount: null, fraction: '1/1' },
      ],
      mealReduction: {
        kind: 'perMealByBand',
        of: 'bandAmount',
        byBand: {
          '1-12h': { Breakfast: '70', Lunch: '70', Dinner: '70' },
          '>12-18h': { Breakfast: '35', Lunch: '35', Dinner: '35' },
          '>18h': { Breakfast: '25', Lunch: '25', Dinner: '25' },
        },
        text:
          'Per free meal: 70 % at a third of the rate, 35 % at two thirds, 25 % at the full rate (§179(3)); ' +
          'none is paid with 2 free meals on a day of at most 12 hours or 3 on 12 to 18 hours (§179(4)).',
      },
      source: { act: ZP, provision: '§170, §179' },
    },
  ],
  // The rate of a day is that of the country where most of the day abroad was spent (docs/decisions/0051).
  foreignRates: [
    ...yearly('DE', 'EUR', ['45', LISTS], ['50', LISTS]),
    ...yearly('AT', 'EUR', ['45', LISTS], ['45', `${LISTS} (no change)`]),
    ...yearly('SK', 'EUR', ['35', LISTS], ['40', LISTS]),
    ...yearly('PL', 'EUR', ['50', `${LISTS}; grantthornton.cz 2025`], ['50', LISTS]),
    ...yearly('HU', 'EUR', ['50', LISTS], ['50', LISTS]),
    ...yearly('HR', 'EUR', ['50', 'auditor.eu travel allowances 2025'], ['50', DERIVED_2026]),
    ...yearly('IT', 'EUR', ['55', 'auditor.eu travel allowances 2025'], ['55', DERIVED_2026]),
    ...yearly('US', 'USD', ['65', LISTS], ['70', LISTS]),
    ...yearly('CH', 'CHF', ['75', 'auditor.eu (no change)'], ['75', 'auditor.eu (no change)']),
    ...yearly(
      'BE',
      'EUR',
      ['50', 'derived: absent from the 2025 change list'],
      ['50', 'mfcr.cz page of vyhl. 489/2025 Sb.'],
    ),
    ...yearly('FR', 'EUR', ['50', DERIVED_BOTH], ['50', DERIVED_BOTH]),
    ...yearly('NL', 'EUR', ['50', DERIVED_BOTH], ['50', DERIVED_BOTH]),
  ],
  mileage: [
    {
      market: 'CZ',
      effectiveFrom: '2025-01-01',
      effectiveTo: '2025-12-31',
      currency: 'CZK',
      perKm: { Car: '5.80', Motorcycle: '1.60' },
      source: { act: Y2025, provision: null },
    },
    {
      market: 'CZ',
      effectiveFrom: '2026-01-01',
      effectiveTo: '2026-12-31',
      currency: 'CZK',
      perKm: { Car: '5.90', Motorcycle: '1.60' },
      source: { act: Y2026, provision: null },
    },
  ],
  fuel: [
    {
      market: 'CZ',
      effectiveFrom: '2025-01-01',
      effectiveTo: '2025-12-31',
      currency: 'CZK',
      prices: { Natural95: '35.80', Natural98: '40.50', Diesel: '34.70', Electricity: '7.70' },
      source: { act: Y2025, provision: null },
    },
    {
      // A diesel change from 2026-06-01 (vyhl. 78/2026 Sb.) appears in code only: unverified, so not here.
      market: 'CZ',
      effectiveFrom: '2026-01-01',
      effectiveTo: '2026-12-31',
      currency: 'CZK',
      prices: { Natural95: '34.70', Natural98: '39.00', Diesel: '34.10', Electricity: '7.20' },
      source: { act: Y2026, provision: null },
    },
  ],
  night: [],
  unknowns: [
    {
      topic: 'foreign',
      reason:
        'Base rates of vyhl. 373/2024 Sb. (2025) and 489/2025 Sb. (2026) are verified for DE, AT, SK, PL, HU, HR, ' +
        'IT, US, CH, BE, FR and NL only; the rest of the decree (SI, GB and others) is not.',
    },
    { topic: 'night', reason: 'Czech law has no separate night allowance in the research.' },
  ],
};
