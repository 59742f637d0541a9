// Croatia: Pravilnik o porezu na dohodak (NN 143/2023 for 2024 on) for the tax-free dnevnica and the
// private-car rate; Odluka NN 16/24 (from 2024-02-08) for the foreign per-country amounts. Figures from
// ../shared/research/REGULATIONS.md (foreign rows: its second pass).
import type { Band, MarketTables } from '../types';

const PRAVILNIK_2024 = 'Pravilnik o porezu na dohodak (NN 143/2023)';
const PRAVILNIK_2023 = 'Pravilnik o porezu na dohodak (version in force in 2023)';
const ODLUKA = { act: 'Odluka o visini dnevnica za službena putovanja u inozemstvo (NN 16/24)', provision: null };

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
  // Odluka NN 16/24 as read by rrif.hr (research, second pass). DE, IT, SI, SK, PL and HU are not verified:
  // absent, so unknown, and not "unlisted" either (they may be listed with an amount nobody read).
  foreignRates: [
    { countryCode: 'AT', amount: '90' },
    { countryCode: 'BE', amount: '90' },
    { countryCode: 'DK', amount: '90' },
    { countryCode: 'FI', amount: '90' },
    { countryCode: 'FR', amount: '90' },
    { countryCode: 'IE', amount: '90' },
    { countryCode: 'CZ', amount: '80' },
    { countryCode: 'CY', amount: '80' },
    { countryCode: 'EE', amount: '80' },
    { countryCode: 'BG', amount: '70' },
    { countryCode: 'GR', amount: '70' },
    { countryCode: 'BA', amount: '50' },
    { countryCode: 'ME', amount: '50' },
  ].map((r) => ({
    market: 'HR' as const,
    ...r,
    currency: 'EUR',
    effectiveFrom: '2024-02-08',
    effectiveTo: null,
    source: { ...ODLUKA, reportedBy: 'rrif.hr' },
  })),
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
        'Odluka NN 16/24 rows are verified for AT, BE, DK, FI, FR, IE, CZ, CY, EE, BG, GR, BA and ME only; DE, IT, ' +
        'SI, SK, PL, HU and the rest are not. The 50 USD rate is for countries the Odluka does not list, and ' +
        'no country is known to be unlisted.',
    },
    { topic: 'fuel', reason: 'Croatia reimburses a private car per km; there are no regulation fuel prices.' },
    { topic: 'night', reason: 'Croatian rules have no separate night allowance in the research.' },
  ],
};
