// Czechia: zákoník práce (zákon č. 262/2006 Sb.) §163, §170, §179, §180 and the yearly MPSV decree that
// sets the domestic stravné, the rate per km and the average fuel prices. Figures from
// research/REGULATIONS.md. The foreign base rates (MF decree, 373/2024 Sb. for 2025, 489/2025 Sb. for 2026)
// are generated from research/foreign/CZ.md (scripts/import-research.ts).
import type { MarketTables } from '../types';
import { FOREIGN_RATES } from './generated/cz-foreign';

const ZP = 'Zákon č. 262/2006 Sb., zákoník práce';
const Y2025 = 'Vyhláška č. 475/2024 Sb.';
const Y2026 = 'Vyhláška č. 573/2025 Sb.';
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
  // Both annexes whole, read in the e-Sbírka mirror (research/foreign/CZ.md), generated: the group rows
  // expanded into their footnote members, "Ostatní země neuvedené v příloze" (35 EUR) for every other code.
  foreignRates: FOREIGN_RATES,
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
        'Base rates are read for 2025 (vyhl. 373/2024 Sb.) and 2026 (vyhl. 489/2025 Sb.) only; every country has ' +
        'one in those years.',
    },
    { topic: 'night', reason: 'Czech law has no separate night allowance in the research.' },
  ],
};
