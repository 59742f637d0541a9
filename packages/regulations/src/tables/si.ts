// Slovenia: Uredba o višini povračil stroškov v zvezi z delom in drugih dohodkov, ki se ne vštevajo v
// davčno osnovo (UL RS 140/2006, 76/2008). Figures from ../shared/research/REGULATIONS.md. The
// kilometrina (0.37 €/km in the research) is left out: newer values exist and are unverified, so its
// validity on any date is unknown. Foreign rates are verified from 2021; the 2026 amounts are not.
import type { MarketTables } from '../types';

const UREDBA = 'Uredba o višini povračil stroškov v zvezi z delom (UL RS 140/2006, 76/2008)';

export const SI: MarketTables = {
  market: 'SI',
  domestic: [
    {
      market: 'SI',
      effectiveFrom: null,
      effectiveTo: null,
      currency: 'EUR',
      bands: [
        // "nad 6 do 8 ur", "nad 8 do 12 ur", "nad 12 do 24 ur": each band excludes its lower edge and
        // includes its upper one (research, second pass).
        { id: '>6-8h', from: { hours: 6, inclusive: false }, to: { hours: 8, inclusive: true }, amount: '7.45' },
        { id: '>8-12h', from: { hours: 8, inclusive: false }, to: { hours: 12, inclusive: true }, amount: '10.68' },
        { id: '>12-24h', from: { hours: 12, inclusive: false }, to: { hours: 24, inclusive: true }, amount: '21.39' },
      ],
      multiDayRule: 'Full 24-hour blocks first; the remainder falls in one band.',
      mealReduction: {
        kind: 'perMealByBand',
        of: 'bandAmount',
        byBand: { '>12-24h': { Breakfast: '10' }, '>8-12h': { Breakfast: '15' }, '>6-8h': null },
        text: 'Breakfast paid: the dnevnica is reduced by 10 % (over 12 hours) or 15 % (8 to 12 hours).',
      },
      source: { act: UREDBA, provision: null },
    },
  ],
  foreignRules: [
    {
      market: 'SI',
      effectiveFrom: null,
      effectiveTo: null,
      bands: [
        // Worded like the domestic bands: over 6 up to 8 h, over 8 up to 14 h, over 14 up to 24 h.
        {
          id: '>6-8h',
          from: { hours: 6, inclusive: false },
          to: { hours: 8, inclusive: true },
          amount: null,
          fraction: '1/4',
        },
        {
          id: '>8-14h',
          from: { hours: 8, inclusive: false },
          to: { hours: 14, inclusive: true },
          amount: null,
          fraction: '3/4',
        },
        {
          id: '>14-24h',
          from: { hours: 14, inclusive: false },
          to: { hours: 24, inclusive: true },
          amount: null,
          fraction: '1/1',
        },
      ],
      mealReduction: {
        kind: 'perMealByBand',
        of: 'bandAmount',
        byBand: {
          '>14-24h': { Breakfast: '10', Lunch: '35', Dinner: '35' },
          '>8-14h': { Breakfast: '15', Lunch: '40', Dinner: '40' },
          '>6-8h': null,
        },
        minimumPaidPercent: '20',
        text:
          'Over 14 hours: breakfast −10 %, lunch and dinner −35 % each; 8 to 14 hours: −15 % / −40 % / −40 %; ' +
          'with every meal free 20 % is still paid.',
      },
      source: { act: UREDBA, provision: null },
    },
  ],
  foreignRates: ['HR', 'CZ', 'PL', 'SK'].map((countryCode) => ({
    market: 'SI' as const,
    countryCode,
    amount: '40',
    currency: 'EUR',
    effectiveFrom: '2021-01-01',
    effectiveTo: null,
    verifiedThrough: '2025-12-31',
    source: { act: UREDBA, provision: null },
  })),
  mileage: [],
  fuel: [],
  night: [],
  unknowns: [
    {
      topic: 'mileage',
      reason: 'The kilometrina in the research (0.37 €/km) has newer values that are not verified.',
    },
    {
      topic: 'foreign',
      reason: 'Rates are verified for HR, CZ, PL and SK from 2021 to 2025; the 2026 amounts are not.',
    },
    { topic: 'fuel', reason: 'Slovenia reimburses per km; there are no regulation fuel prices.' },
    { topic: 'night', reason: 'Slovenian rules have no separate night allowance in the research.' },
  ],
};
