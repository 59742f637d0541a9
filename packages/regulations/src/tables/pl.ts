// Poland: rozporządzenie Ministra Pracy i Polityki Społecznej z dnia 29 stycznia 2013 r. (Dz.U. 2023
// poz. 2190) for the dieta, nights and foreign trips; the kilometrówka by the separate regulation in
// force since 2023-01-17. Figures from ../shared/research/REGULATIONS.md. The 60 zł dieta is a draft:
// not here.
import type { MarketTables } from '../types';
import { FOREIGN_RATES, REPORTED_RATES } from './generated/pl-foreign';

const ROZP = 'Rozporządzenie MPiPS z dnia 29 stycznia 2013 r. (Dz.U. 2023 poz. 2190)';

export const PL: MarketTables = {
  market: 'PL',
  domestic: [
    {
      market: 'PL',
      effectiveFrom: '2023-01-01',
      effectiveTo: null,
      currency: 'PLN',
      dailyRate: '45.00',
      // A trip of at most 24 hours; a longer trip pays each full day at 100 % and the started day by
      // `multiDayRule`.
      bands: [
        {
          id: '<8h',
          from: { hours: 0, inclusive: true },
          to: { hours: 8, inclusive: false },
          amount: '0.00',
          fraction: '0/1',
        },
        {
          id: '8-12h',
          from: { hours: 8, inclusive: true },
          to: { hours: 12, inclusive: true },
          amount: '22.50',
          fraction: '1/2',
        },
        { id: '>12h', from: { hours: 12, inclusive: false }, to: null, amount: '45.00', fraction: '1/1' },
      ],
      multiDayRule:
        'A trip over 24 hours: each full day 100 % of the dieta; a started day of up to 8 hours 50 %, over 8 hours 100 %.',
      startedDayBands: [
        {
          id: 'started<=8h',
          from: { hours: 0, inclusive: false },
          to: { hours: 8, inclusive: true },
          amount: '22.50',
          fraction: '1/2',
        },
        { id: 'started>8h', from: { hours: 8, inclusive: false }, to: null, amount: '45.00', fraction: '1/1' },
      ],
      mealReduction: {
        kind: 'perMeal',
        of: 'dailyRate',
        perMeal: { Breakfast: '25', Lunch: '50', Dinner: '25' },
        text: 'Per meal provided: breakfast 25 %, lunch 50 %, dinner 25 % of the dieta.',
      },
      source: { act: ROZP, provision: null },
    },
  ],
  foreignRules: [
    {
      market: 'PL',
      effectiveFrom: null,
      effectiveTo: null,
      bands: [
        {
          id: '<=8h',
          from: { hours: 0, inclusive: false },
          to: { hours: 8, inclusive: true },
          amount: null,
          fraction: '1/3',
        },
        {
          id: '>8-12h',
          from: { hours: 8, inclusive: false },
          to: { hours: 12, inclusive: true },
          amount: null,
          fraction: '1/2',
        },
        { id: '>12h', from: { hours: 12, inclusive: false }, to: null, amount: null, fraction: '1/1' },
      ],
      mealReduction: {
        kind: 'perMeal',
        of: 'dailyRate',
        perMeal: { Breakfast: '15', Lunch: '30', Dinner: '30' },
        text: 'Per meal provided: breakfast 15 %, lunch 30 %, dinner 30 % of the country dieta.',
      },
      source: { act: ROZP, provision: null },
    },
  ],
  // The annex from 2022-11-29 (Dz.U. 2022 poz. 2302) and the 2013 values of the rows it changed, generated
  // from research/foreign/PL.md: rows with two sources priced, the others reported.
  foreignRates: FOREIGN_RATES,
  reportedRates: REPORTED_RATES,
  mileage: [
    {
      market: 'PL',
      effectiveFrom: '2023-01-17',
      effectiveTo: null,
      currency: 'PLN',
      perKm: { CarUpTo900cc: '0.89', CarOver900cc: '1.15', Motorcycle: '0.69', Moped: '0.42' },
      source: { act: 'Stawki za 1 km przebiegu pojazdu (kilometrówka), in force since 2023-01-17', provision: null },
    },
  ],
  fuel: [],
  night: [
    {
      market: 'PL',
      effectiveFrom: '2023-01-01',
      effectiveTo: null,
      currency: 'PLN',
      window: { from: '21:00', to: '07:00', minimumHours: 6 },
      lumpSum: '67.50',
      lumpSumPercentOfDailyRate: '150',
      hotelLimit: '900.00',
      localTransportPerDay: '9.00',
      foreignLumpSumPercentOfHotelLimit: '25',
      source: { act: ROZP, provision: null },
    },
  ],
  unknowns: [
    {
      topic: 'foreign',
      reason:
        'The annex in force from 2022-11-29 is read in transcriptions: a row two sources give is priced, a row ' +
        'read in part (Serbia, the Congos, the New York and Washington limits) only reported, and CG stays unknown ' +
        '(the row "Kongo" may be its own). Before 2022-11-29 only the rows the 2022 amendment changed are read.',
    },
    { topic: 'mileage', reason: 'No rate for electric vehicles is in force.' },
    { topic: 'fuel', reason: 'Polish mileage is a rate per km; there are no regulation fuel prices.' },
  ],
};
