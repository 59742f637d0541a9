// Slovakia: zákon č. 283/2002 Z. z. o cestovných náhradách; MPSVR announcements of the stravné and the
// rate per km; MF SR opatrenie č. 401/2012 Z. z. for the foreign base rates. Figures from
// ../shared/research/REGULATIONS.md.
import type { Band, MarketTables } from '../types';
import { FOREIGN_RATES, REPORTED_RATES } from './generated/sk-foreign';

const LAW = 'Zákon č. 283/2002 Z. z. o cestovných náhradách';
const MPSVR = 'MPSVR SR announcement of the stravné amounts';

const bands = (a: string, b: string, c: string): Band[] => [
  { id: '5-12h', from: { hours: 5, inclusive: true }, to: { hours: 12, inclusive: true }, amount: a },
  { id: '>12-18h', from: { hours: 12, inclusive: false }, to: { hours: 18, inclusive: true }, amount: b },
  { id: '>18h', from: { hours: 18, inclusive: false }, to: null, amount: c },
];

const meals = {
  kind: 'perMeal' as const,
  of: 'fullDayAmount' as const,
  perMeal: { Breakfast: '25', Lunch: '40', Dinner: '35' },
  rounding: 'upToCent' as const,
  text: 'Per free meal: breakfast 25 %, lunch 40 %, dinner 35 % of the over-18-hours amount, rounded up to the cent.',
};

export const SK: MarketTables = {
  market: 'SK',
  domestic: [
    {
      market: 'SK',
      effectiveFrom: '2025-04-01',
      effectiveTo: '2025-11-30',
      currency: 'EUR',
      bands: bands('8.80', '13.10', '19.50'),
      mealReduction: meals,
      source: { act: `${MPSVR}, účinné od 1. 4. 2025; ${LAW}`, provision: null },
    },
    {
      market: 'SK',
      effectiveFrom: '2025-12-01',
      effectiveTo: null,
      currency: 'EUR',
      bands: bands('9.30', '13.80', '20.60'),
      mealReduction: meals,
      source: { act: `${MPSVR}, účinné od 1. 12. 2025; ${LAW}`, provision: null },
    },
  ],
  foreignRules: [
    {
      market: 'SK',
      effectiveFrom: null,
      effectiveTo: null,
      bands: [
        {
          id: '<=6h',
          from: { hours: 0, inclusive: false },
          to: { hours: 6, inclusive: true },
          amount: null,
          fraction: '1/4',
        },
        {
          id: '>6-12h',
          from: { hours: 6, inclusive: false },
          to: { hours: 12, inclusive: true },
          amount: null,
          fraction: '1/2',
        },
        { id: '>12h', from: { hours: 12, inclusive: false }, to: null, amount: null, fraction: '1/1' },
      ],
      mealReduction: {
        kind: 'perMeal',
        of: 'fullDayAmount',
        perMeal: { Breakfast: '25', Lunch: '40', Dinner: '35' },
        text: 'Per free meal: breakfast 25 %, lunch 40 %, dinner 35 % of the country base rate.',
      },
      source: { act: LAW, provision: null },
    },
  ],
  // Base rates of opatrenie 401/2012 Z. z. (in force from 2013-01-01, not replaced): the rows cross-checked in
  // a second source (research/foreign/SK.md, Table 1), generated; the single-source rows are reported.
  foreignRates: [
    ...FOREIGN_RATES,
    // Opatrenie MF SR 9/2026 Z. z., from 2026-01-30: higher rates for mobile road-transport workers only
    // (an employee marked so); the research lists these eight countries.
    ...[
      { countryCode: 'AT', amount: '63', currency: 'EUR' },
      { countryCode: 'CZ', amount: '1200', currency: 'CZK' },
      { countryCode: 'DE', amount: '63', currency: 'EUR' },
      { countryCode: 'HR', amount: '56', currency: 'EUR' },
      { countryCode: 'HU', amount: '55', currency: 'EUR' },
      { countryCode: 'IT', amount: '63', currency: 'EUR' },
      { countryCode: 'PL', amount: '52', currency: 'EUR' },
      { countryCode: 'SI', amount: '53', currency: 'EUR' },
    ].map((r) => ({
      market: 'SK' as const,
      ...r,
      workerGroup: 'MobileRoadTransport' as const,
      effectiveFrom: '2026-01-30',
      effectiveTo: null,
      source: { act: 'Opatrenie MF SR č. 9/2026 Z. z.', provision: null, reportedBy: 'cesmad.sk' },
    })),
  ],
  reportedRates: REPORTED_RATES,
  mileage: [
    {
      market: 'SK',
      effectiveFrom: '2025-03-01',
      effectiveTo: '2025-12-31',
      currency: 'EUR',
      perKm: { Car: '0.281', Motorcycle: '0.080' },
      trailerSurchargePercent: '15',
      source: {
        act: `MPSVR SR announcement of the základná náhrada per km, účinné od 1. 3. 2025; ${LAW}`,
        provision: null,
      },
    },
    {
      market: 'SK',
      effectiveFrom: '2026-01-01',
      effectiveTo: null,
      currency: 'EUR',
      perKm: { Car: '0.313', Motorcycle: '0.090' },
      trailerSurchargePercent: '15',
      source: {
        act: `MPSVR SR announcement of the základná náhrada per km, účinné od 1. 1. 2026; ${LAW}`,
        provision: null,
      },
    },
  ],
  fuel: [],
  night: [],
  unknowns: [
    {
      topic: 'fuel',
      reason:
        'Slovakia prices fuel at the receipt price, otherwise at a Statistical Office average whose figures the ' +
        'research has not verified.',
    },
    {
      topic: 'foreign',
      reason:
        'Opatrenie 401/2012 Z. z. is read in one complete secondary list; only the 34 rows a second source ' +
        'confirms are statutory. The others are reported figures (named, never priced), and a country the list ' +
        'lacks (XK) has no figure at all.',
    },
    { topic: 'night', reason: 'Slovak law has no separate night allowance in the research.' },
  ],
};
