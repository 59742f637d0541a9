// Slovenia: Uredba o davčni obravnavi povračil stroškov in drugih dohodkov iz delovnega razmerja (UL RS
// 140/2006, renamed by 76/2008; dnevnice raised by 162/2022 from 2023-01-01) for the tax-free domestic
// dnevnica and kilometrina; Uredba o povračilu stroškov za službena potovanja v tujino (UL RS 76/2019) for
// the foreign rates, generated from research/foreign/SI.md. Figures from research/REGULATIONS.md (third
// pass) and research/foreign/SI.md.
import type { Band, MarketTables, MealReductionRule } from '../types';
import { FOREIGN_RATES, REPORTED_RATES } from './generated/si-foreign';

const UREDBA = 'Uredba o davčni obravnavi povračil stroškov in drugih dohodkov iz delovnega razmerja';
const UREDBA_2008 = `${UREDBA} (UL RS 140/2006, 76/2008)`;
const UREDBA_2023 = `${UREDBA} (UL RS 140/2006 … 162/2022)`;
const FOREIGN_UREDBA = 'Uredba o povračilu stroškov za službena potovanja v tujino (UL RS 76/2019)';

// "nad 6 do 8 ur", "nad 8 do 12 ur", "nad 12 do 24 ur": each band excludes its lower edge and includes its
// upper one (research, second pass). A null amount: the band's figure is unknown (two sources disagree).
const bands = (a: string | null, b: string, c: string): Band[] => [
  { id: '>6-8h', from: { hours: 6, inclusive: false }, to: { hours: 8, inclusive: true }, amount: a },
  { id: '>8-12h', from: { hours: 8, inclusive: false }, to: { hours: 12, inclusive: true }, amount: b },
  { id: '>12-24h', from: { hours: 12, inclusive: false }, to: { hours: 24, inclusive: true }, amount: c },
];

const domesticMeals: MealReductionRule = {
  kind: 'perMealByBand',
  of: 'bandAmount',
  byBand: { '>12-24h': { Breakfast: '10' }, '>8-12h': { Breakfast: '15' }, '>6-8h': null },
  text: 'Breakfast paid: the dnevnica is reduced by 10 % (over 12 hours) or 15 % (8 to 12 hours).',
};

export const SI: MarketTables = {
  market: 'SI',
  domestic: [
    {
      // 76/2008, in force from 2008-08-01, until 162/2022 raised the amounts (research/foreign/SI.md, 1b).
      market: 'SI',
      effectiveFrom: '2008-08-01',
      effectiveTo: '2022-12-31',
      currency: 'EUR',
      bands: bands('7.45', '10.68', '21.39'),
      multiDayRule: 'Full 24-hour blocks first; the remainder falls in one band.',
      mealReduction: domesticMeals,
      source: { act: UREDBA_2008, provision: '4. člen (1)' },
    },
    {
      // UL RS 162/2022 from 2023-01-01: 27.81 € and 13.88 € in two sources each; over 6 up to 8 h 9.69 € in
      // one and 7.45 € in another: unknown (the band has no amount, so the engine answers unknown for it).
      market: 'SI',
      effectiveFrom: '2023-01-01',
      effectiveTo: null,
      currency: 'EUR',
      bands: bands(null, '13.88', '27.81'),
      multiDayRule: 'Full 24-hour blocks first; the remainder falls in one band.',
      mealReduction: domesticMeals,
      source: {
        act: UREDBA_2023,
        provision: '4. člen (1)',
        reportedBy: 'zvezarfr.si; jmmc.si (the text of 162/2022 not read)',
      },
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
      source: { act: FOREIGN_UREDBA, provision: null },
    },
  ],
  // The annex of UL RS 76/2019 from 2021-01-01 to 2025-12-31 (a new regulation applies from 2026-01-01, its
  // amounts unread): rows in two sources priced; ES, SE, TR (one source) and LU, HU (conflict) reported.
  foreignRates: FOREIGN_RATES,
  reportedRates: REPORTED_RATES,
  mileage: [
    {
      // 0.37 €/km from 2008-08-01 (76/2008) to 2022-06-30: four sources. 0.43 €/km: three sources for the
      // figure in 2023 and later, but its start (2022-07-01) in one only: July to December 2022 is unknown.
      market: 'SI',
      effectiveFrom: '2008-08-01',
      effectiveTo: '2022-06-30',
      currency: 'EUR',
      perKm: { Car: '0.37' },
      source: {
        act: UREDBA_2008,
        provision: '5. člen (3)',
        reportedBy: 'in-fit.si; potninalog.info; onbvzlex.dashofer.si; fiposor.si',
      },
    },
    {
      market: 'SI',
      effectiveFrom: '2023-01-01',
      effectiveTo: null,
      currency: 'EUR',
      perKm: { Car: '0.43' },
      source: {
        act: `${UREDBA} (UL RS 140/2006 and amendments; the amending act of 2022 not read)`,
        provision: '5. člen (3)',
        reportedBy: 'zvezarfr.si; jmmc.si (2023); travelperk.com',
      },
    },
  ],
  fuel: [],
  night: [],
  unknowns: [
    {
      topic: 'domestic',
      reason:
        'From 2023-01-01 (UL RS 162/2022) the dnevnica over 6 up to 8 hours is 9.69 € in one source and 7.45 € ' +
        'in another: unknown until the text of 162/2022 is read.',
    },
    {
      topic: 'mileage',
      reason:
        'The kilometrina rose from 0.37 to 0.43 €/km in 2022; only one source dates the change (2022-07-01), so ' +
        'July to December 2022 is unknown; 0.43 €/km is confirmed from 2023.',
    },
    {
      topic: 'foreign',
      reason:
        'The annex of UL RS 76/2019 is read for 2021-01-01 to 2025-12-31; a new regulation applies from ' +
        '2026-01-01 and its amounts are unread. UA, VA, US, GB and "Druge države" are read for no year; ES, SE ' +
        'and TR in one source only, LU and HU in sources that disagree (reported figures).',
    },
    { topic: 'fuel', reason: 'Slovenia reimburses per km; there are no regulation fuel prices.' },
    { topic: 'night', reason: 'Slovenian rules have no separate night allowance in the research.' },
  ],
};
