// Croatia: Pravilnik o porezu na dohodak (NN 143/2023 for 2024 on) for the tax-free dnevnica and the
// private-car rate; Odluka NN 16/24 (from 2024-02-08) for the foreign per-country amounts, tax-free up to
// them by čl. 7 st. 2 of the Pravilnik. Figures from research/REGULATIONS.md and research/foreign/HR.md.
import type { Band, MarketTables } from '../types';
import { FOREIGN_RATES } from './generated/hr-foreign';

const PRAVILNIK_2024 = 'Pravilnik o porezu na dohodak (NN 143/2023)';
const PRAVILNIK_2023 = 'Pravilnik o porezu na dohodak (version in force in 2023)';
const ODLUKA = {
  act: 'Odluka o visini dnevnice za službeno putovanje u inozemstvo za korisnike koji se financiraju iz sredstava državnog proračuna (NN 16/24)',
  provision: 'čl. 7 st. 2 Pravilnika o porezu na dohodak',
};

const bands = (half: string, full: string): Band[] => [
  {
    id: '8-12h',
    from: { hours: 8, inclusive: true },
    to: { hours: 12, inclusive: true },
    amount: half,
    fraction: '1/2',
  },
  { id: '>12h', from: { hours: 12, inclusive: false }, to: null, amount: full, fraction: '1/1' },
];

const meals = {
  kind: 'countedMeals' as const,
  of: 'bandAmount' as const,
  countedMeals: ['Lunch' as const, 'Dinner' as const],
  byCount: ['30', '60'],
  text: 'One meal provided (lunch or dinner): −30 %; both: −60 %. A hotel breakfast does not count.',
};

export const HR: MarketTables = {
  market: 'HR',
  domestic: [
    {
      market: 'HR',
      effectiveFrom: '2023-01-01',
      effectiveTo: '2023-12-31',
      currency: 'EUR',
      bands: bands('13.27', '26.54'),
      mealReduction: meals,
      source: { act: PRAVILNIK_2023, provision: null },
    },
    {
      market: 'HR',
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      currency: 'EUR',
      bands: bands('15.00', '30.00'),
      mealReduction: meals,
      source: { act: PRAVILNIK_2024, provision: null },
    },
  ],
  foreignRules: [
    {
      market: 'HR',
      effectiveFrom: '2024-02-08',
      effectiveTo: null,
      bands: bands('', '').map((b) => ({ ...b, amount: null })), // same bands, as shares of the country rate
      mealReduction: meals,
      // For countries the Odluka does not list; the research names none as known to be unlisted, so no
      // destination takes it yet (docs/decisions/0025).
      unlistedCountryRate: { amount: '50', currency: 'USD' },
      source: ODLUKA,
    },
  ],
  // Odluka NN 16/24 from 2024-02-08: the 36 rows rrif.hr reproduces (Afghanistan to Iceland), generated from
  // research/foreign/HR.md. Every later row is unread: unknown, and not "unlisted" either (never 50 USD).
  foreignRates: FOREIGN_RATES,
  mileage: [
    {
      market: 'HR',
      effectiveFrom: '2023-01-01',
      effectiveTo: '2023-12-31',
      currency: 'EUR',
      perKm: { Car: '0.40' },
      source: { act: PRAVILNIK_2023, provision: null },
    },
    {
      market: 'HR',
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      currency: 'EUR',
      perKm: { Car: '0.50' },
      source: { act: PRAVILNIK_2024, provision: null },
    },
  ],
  fuel: [],
  night: [],
  unknowns: [
    {
      topic: 'foreign',
      reason:
        'The Odluka NN 16/24 table is read through its 36th row (Afghanistan to Iceland, alphabetical in ' +
        'Croatian); the rows after it (IT, DE, SI, SK, PL, HU, RS, GB, US, CH and the rest) are unread, so ' +
        'unknown. If the country is not listed in the Odluka at all, 50 USD applies (ostale države); no country ' +
        'is known to be unlisted.',
    },
    { topic: 'fuel', reason: 'Croatia reimburses a private car per km; there are no regulation fuel prices.' },
    { topic: 'night', reason: 'Croatian rules have no separate night allowance in the research.' },
  ],
};
