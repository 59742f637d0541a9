// Figures checked against ../shared/research/REGULATIONS.md: every expected value below is copied from
// that file (section named in each describe), not from the tables.
import {
  TABLES,
  domesticPerDiem,
  foreignRate,
  foreignRules,
  fuelPrices,
  mileageRates,
  nightRules,
  ratesInForce,
  MARKETS,
  appliesOn,
  type Band,
  type Lookup,
} from './index';

const known = <T>(l: Lookup<T>): T => {
  if (l.status !== 'known') throw new Error(`expected a known row, got: ${l.reason}`);
  return l.row;
};
const amounts = (bands: Band[]) => bands.map((b) => b.amount);

describe('Czechia (REGULATIONS.md, CZ table)', () => {
  it('2025 (vyhl. 475/2024 Sb.): stravné 148 / 225 / 353 Kč, public sector up to 177 / 271 / 422', () => {
    const d = known(domesticPerDiem('CZ', '2025-06-30'));
    expect(d.currency).toBe('CZK');
    expect(amounts(d.bands)).toEqual(['148', '225', '353']);
    expect(d.bands.map((b) => b.publicSectorMaximum)).toEqual(['177', '271', '422']);
    expect(d.source.act).toContain('475/2024');
  });
  it('2026 (vyhl. 573/2025 Sb.): stravné 155 / 236 / 370 Kč, public sector up to 185 / 284 / 442', () => {
    const d = known(domesticPerDiem('CZ', '2026-01-01'));
    expect(amounts(d.bands)).toEqual(['155', '236', '370']);
    expect(d.bands.map((b) => b.publicSectorMaximum)).toEqual(['185', '284', '442']);
    expect(d.source.act).toContain('573/2025');
  });
  it('the decree changes at midnight between the years: 2025-12-31 is 2025, 2026-01-01 is 2026', () => {
    expect(known(domesticPerDiem('CZ', '2025-12-31')).bands[0]!.amount).toBe('148');
    expect(known(domesticPerDiem('CZ', '2026-01-01')).bands[0]!.amount).toBe('155');
  });
  it('bands 5–12 h / >12–18 h / >18 h', () => {
    const [a, b, c] = known(domesticPerDiem('CZ', '2026-03-01')).bands;
    expect([a!.from, a!.to]).toEqual([
      { hours: 5, inclusive: true },
      { hours: 12, inclusive: true },
    ]);
    expect([b!.from, b!.to]).toEqual([
      { hours: 12, inclusive: false },
      { hours: 18, inclusive: true },
    ]);
    expect([c!.from, c!.to]).toEqual([{ hours: 18, inclusive: false }, null]);
  });
  it('domestic free-meal reduction 70 % / 35 % / 25 % by band (§163(2))', () => {
    const m = known(domesticPerDiem('CZ', '2026-03-01')).mealReduction!;
    expect(m.byBand!['5-12h']!.Lunch).toBe('70');
    expect(m.byBand!['>12-18h']!.Lunch).toBe('35');
    expect(m.byBand!['>18h']!.Lunch).toBe('25');
  });
  it('car 5.80 → 5.90 Kč/km, motorcycle 1.60', () => {
    expect(known(mileageRates('CZ', '2025-05-05')).perKm).toEqual({ Car: '5.80', Motorcycle: '1.60' });
    expect(known(mileageRates('CZ', '2026-05-05')).perKm).toEqual({ Car: '5.90', Motorcycle: '1.60' });
  });
  it('fuel: 35.80 / 40.50 / 34.70 Kč and 7.70 Kč/kWh in 2025; 34.70 / 39.00 / 34.10 and 7.20 in 2026', () => {
    expect(known(fuelPrices('CZ', '2025-02-01')).prices).toEqual({
      Natural95: '35.80',
      Natural98: '40.50',
      Diesel: '34.70',
      Electricity: '7.70',
    });
    expect(known(fuelPrices('CZ', '2026-02-01')).prices).toEqual({
      Natural95: '34.70',
      Natural98: '39.00',
      Diesel: '34.10',
      Electricity: '7.20',
    });
  });
  it('the unverified diesel change from 2026-06-01 (vyhl. 78/2026) is not in the table', () => {
    expect(known(fuelPrices('CZ', '2026-07-01')).prices.Diesel).toBe('34.10');
    expect(TABLES.CZ.fuel.some((f) => f.prices.Diesel === '44.50')).toBe(false);
  });
  it('foreign bands (§170(1)): from 1 h up to 12 h ⅓, over 12 up to 18 h ⅔, over 18 h full; meals 70 / 35 / 25 %', () => {
    const r = known(foreignRules('CZ', '2026-03-01'));
    expect(r.bands!.map((b) => [b.from, b.to, b.fraction])).toEqual([
      [{ hours: 1, inclusive: true }, { hours: 12, inclusive: true }, '1/3'],
      [{ hours: 12, inclusive: false }, { hours: 18, inclusive: true }, '2/3'],
      [{ hours: 18, inclusive: false }, null, '1/1'],
    ]);
    const ids = r.bands!.map((b) => b.id);
    expect(ids.map((id) => r.mealReduction!.byBand![id]!.Breakfast)).toEqual(['70', '35', '25']);
  });
  it.each([
    // REGULATIONS.md, second pass, CZ foreign stravné: [country, 2025, 2026, currency]
    ['DE', '45', '50', 'EUR'],
    ['AT', '45', '45', 'EUR'],
    ['SK', '35', '40', 'EUR'],
    ['PL', '50', '50', 'EUR'],
    ['HU', '50', '50', 'EUR'],
    ['HR', '50', '50', 'EUR'],
    ['IT', '55', '55', 'EUR'],
    ['US', '65', '70', 'USD'],
    ['CH', '75', '75', 'CHF'],
    ['BE', '50', '50', 'EUR'],
    ['FR', '50', '50', 'EUR'],
    ['NL', '50', '50', 'EUR'],
  ])('foreign base rate %s: %s (2025, vyhl. 373/2024 Sb.) and %s (2026, vyhl. 489/2025 Sb.) %s', (c, y25, y26, cur) => {
    const a = known(foreignRate('CZ', c, '2025-12-31'));
    expect(a).toMatchObject({ amount: y25, currency: cur, effectiveFrom: '2025-01-01', effectiveTo: '2025-12-31' });
    expect(a.source.act).toBe('Vyhláška č. 373/2024 Sb.');
    expect(a.source.reportedBy).toBeTruthy();
    const b = known(foreignRate('CZ', c, '2026-01-01'));
    expect(b).toMatchObject({ amount: y26, currency: cur, effectiveFrom: '2026-01-01', effectiveTo: '2026-12-31' });
    expect(b.source.act).toBe('Vyhláška č. 489/2025 Sb.');
  });
  it('every row is read in the e-Sbírka mirror of the decree, with § 170 odst. 1 and the annex as provision', () => {
    for (const [c, date] of [
      ['HR', '2026-05-01'],
      ['BE', '2025-05-01'],
      ['DE', '2026-05-01'],
    ] as const) {
      expect(known(foreignRate('CZ', c, date)).source).toMatchObject({
        provision: expect.stringMatching(/^§ 170 odst\. 1 .*příloha vyhlášky/),
        reportedBy: expect.stringMatching(/e-Sbírka.*flatiocom\/czech-law-md/),
      });
    }
  });
  it('the whole annex: SI 40 EUR, GB 45 GBP (research/foreign/CZ.md); 2027 and 2024 are unknown, with the reason', () => {
    expect(known(foreignRate('CZ', 'SI', '2026-03-01'))).toMatchObject({ amount: '40', currency: 'EUR' });
    expect(known(foreignRate('CZ', 'GB', '2026-03-01'))).toMatchObject({ amount: '45', currency: 'GBP' });
    for (const date of ['2027-01-01', '2024-12-31']) {
      const l = foreignRate('CZ', 'DE', date);
      expect(l.status).toBe('unknown');
      expect(l.status === 'unknown' && l.reason).toMatch(/read for 2025 .* and 2026 .* only/);
    }
  });
  it('2027 has no decree in the research: every yearly figure is unknown', () => {
    expect(domesticPerDiem('CZ', '2027-01-01').status).toBe('unknown');
    expect(mileageRates('CZ', '2027-01-01').status).toBe('unknown');
    expect(fuelPrices('CZ', '2027-01-01').status).toBe('unknown');
  });
});

describe('Slovakia (REGULATIONS.md, SK section)', () => {
  it('stravné from 2025-04-01: 8.80 / 13.10 / 19.50 €; from 2025-12-01: 9.30 / 13.80 / 20.60 €', () => {
    expect(amounts(known(domesticPerDiem('SK', '2025-04-01')).bands)).toEqual(['8.80', '13.10', '19.50']);
    expect(amounts(known(domesticPerDiem('SK', '2025-11-30')).bands)).toEqual(['8.80', '13.10', '19.50']);
    expect(amounts(known(domesticPerDiem('SK', '2025-12-01')).bands)).toEqual(['9.30', '13.80', '20.60']);
    expect(domesticPerDiem('SK', '2025-03-31').status).toBe('unknown');
  });
  it('meal reduction breakfast 25 %, lunch 40 %, dinner 35 % of the >18 h amount, rounded up to the cent', () => {
    const m = known(domesticPerDiem('SK', '2026-01-10')).mealReduction!;
    expect(m.perMeal).toEqual({ Breakfast: '25', Lunch: '40', Dinner: '35' });
    expect(m.of).toBe('fullDayAmount');
    expect(m.rounding).toBe('upToCent');
  });
  it.each([
    // REGULATIONS.md, second pass, SK foreign (opatrenie MF SR 401/2012 Z.z.; cesmad.sk list)
    ['DE', '45', 'EUR'],
    ['AT', '45', 'EUR'],
    ['HU', '39', 'EUR'],
    ['CZ', '600', 'CZK'],
    ['PL', '37', 'EUR'],
    ['SI', '38', 'EUR'],
    ['IT', '45', 'EUR'],
    ['GB', '37', 'GBP'],
  ])('foreign base rate (opatrenie 401/2012 Z. z.): %s %s %s', (country, amount, currency) => {
    const r = known(foreignRate('SK', country, '2026-01-10'));
    expect(r).toMatchObject({ amount, currency, effectiveFrom: '2013-01-01' });
    expect(r.source).toMatchObject({
      act: 'Opatrenie MF SR č. 401/2012 Z. z.',
      reportedBy: expect.stringMatching(/instea\/Cestovne-prikazy.*(cesmad|profivodic|m-office)/),
    });
  });
  it.each([
    // REGULATIONS.md, second pass: opatrenie 9/2026 Z.z. from 2026-01-30, mobile road-transport workers only
    ['HR', '56', 'EUR', '40'],
    ['AT', '63', 'EUR', '45'],
    ['DE', '63', 'EUR', '45'],
    ['HU', '55', 'EUR', '39'],
    ['CZ', '1200', 'CZK', '600'],
    ['PL', '52', 'EUR', '37'],
    ['SI', '53', 'EUR', '38'],
    ['IT', '63', 'EUR', '45'],
  ])('mobile road-transport workers to %s: %s %s from 2026-01-30 (others keep %s)', (c, amount, currency, general) => {
    const r = known(foreignRate('SK', c, '2026-01-30', 'MobileRoadTransport'));
    expect(r).toMatchObject({ amount, currency, effectiveFrom: '2026-01-30', workerGroup: 'MobileRoadTransport' });
    expect(r.source.act).toBe('Opatrenie MF SR č. 9/2026 Z. z.');
    expect(known(foreignRate('SK', c, '2026-01-30')).amount).toBe(general);
    // The day before, the group has no rates of its own: the general one.
    expect(known(foreignRate('SK', c, '2026-01-29', 'MobileRoadTransport')).amount).toBe(general);
  });
  it('a mobile road-transport worker to a country without a verified 9/2026 rate (GB) is unknown, not the lower rate', () => {
    const l = foreignRate('SK', 'GB', '2026-03-01', 'MobileRoadTransport');
    expect(l.status).toBe('unknown');
    expect(l.status === 'unknown' && l.reason).toMatch(/verified for AT, CZ, DE, HR, HU, IT, PL, SI only/);
    expect(known(foreignRate('SK', 'GB', '2026-01-29', 'MobileRoadTransport')).amount).toBe('37');
  });
  it('HR 40 € is cross-checked (research/foreign/SK.md: mup.sk, profivodic.sk, m-office.sk); FR 45 € too', () => {
    const r = known(foreignRate('SK', 'HR', '2026-01-10'));
    expect(r).toMatchObject({ amount: '40', currency: 'EUR' });
    expect(r.source.reportedBy).toMatch(/mup\.sk/);
    expect(known(foreignRate('SK', 'FR', '2026-01-10'))).toMatchObject({ amount: '45', currency: 'EUR' });
  });
  it('a row read in one source only (JP 6500 JPY) is unknown and names the reported figure; XK has none', () => {
    const jp = foreignRate('SK', 'JP', '2026-01-10');
    expect(jp).toMatchObject({
      status: 'unknown',
      reported: [{ amount: '6500', currency: 'JPY', source: expect.stringMatching(/401\/2012.*instea/) }],
    });
    const xk = foreignRate('SK', 'XK', '2026-01-10');
    expect(xk.status).toBe('unknown');
    expect(xk).not.toHaveProperty('reported');
  });
  it('foreign shares per calendar day: up to 6 h 25 %, over 6 up to 12 h 50 %, over 12 h 100 %', () => {
    const bands = known(foreignRules('SK', '2026-01-10')).bands!;
    expect(bands.map((b) => [b.from, b.to, b.fraction])).toEqual([
      [{ hours: 0, inclusive: false }, { hours: 6, inclusive: true }, '1/4'],
      [{ hours: 6, inclusive: false }, { hours: 12, inclusive: true }, '1/2'],
      [{ hours: 12, inclusive: false }, null, '1/1'],
    ]);
  });
  it('car 0.281 / motorcycle 0.080 €/km from 2025-03-01, 0.313 / 0.090 from 2026-01-01, trailer +15 %', () => {
    expect(known(mileageRates('SK', '2025-03-01')).perKm).toEqual({ Car: '0.281', Motorcycle: '0.080' });
    const y2026 = known(mileageRates('SK', '2026-01-01'));
    expect(y2026.perKm).toEqual({ Car: '0.313', Motorcycle: '0.090' });
    expect(y2026.trailerSurchargePercent).toBe('15');
  });
  it('fuel prices are unknown (Statistical Office average unverified)', () => {
    expect(fuelPrices('SK', '2026-01-10').status).toBe('unknown');
  });
});

describe('Poland (REGULATIONS.md, PL section)', () => {
  it('dieta 45 zł since 2023-01-01; ≤24 h: <8 h 0, 8–12 h 50 %, >12 h 100 %', () => {
    const d = known(domesticPerDiem('PL', '2023-01-01'));
    expect(d.dailyRate).toBe('45.00');
    expect(d.bands.map((b) => b.fraction)).toEqual(['0/1', '1/2', '1/1']);
    expect(amounts(d.bands)).toEqual(['0.00', '22.50', '45.00']);
    expect(domesticPerDiem('PL', '2022-12-31').status).toBe('unknown');
  });
  it('trip over 24 h: a started day of up to 8 h 50 % (22.50 zł), over 8 h 100 % (45.00 zł)', () => {
    const d = known(domesticPerDiem('PL', '2026-01-10'));
    expect(d.startedDayBands!.map((b) => [b.from.hours, b.from.inclusive, b.to?.hours ?? null, b.fraction])).toEqual([
      [0, false, 8, '1/2'],
      [8, false, null, '1/1'],
    ]);
    expect(amounts(d.startedDayBands!)).toEqual(['22.50', '45.00']);
  });
  it('meal reduction breakfast 25 %, lunch 50 %, dinner 25 %', () => {
    expect(known(domesticPerDiem('PL', '2026-01-10')).mealReduction!.perMeal).toEqual({
      Breakfast: '25',
      Lunch: '50',
      Dinner: '25',
    });
  });
  it('night lump sum 150 % of the dieta (67.50 zł) for ≥6 h within 21:00–07:00; hotel 20 × dieta; transport 20 %', () => {
    const n = known(nightRules('PL', '2026-01-10'));
    expect(n.lumpSum).toBe('67.50');
    expect(n.window).toEqual({ from: '21:00', to: '07:00', minimumHours: 6 });
    expect(n.hotelLimit).toBe('900.00');
    expect(n.localTransportPerDay).toBe('9.00');
    expect(n.foreignLumpSumPercentOfHotelLimit).toBe('25');
  });
  it('foreign: Austria 57 EUR / hotel 150, Germany 49 / 170; incomplete day ⅓ / 50 % / 100 %; meals 15 / 30 / 30 %', () => {
    expect(known(foreignRate('PL', 'AT', '2026-01-10'))).toMatchObject({
      amount: '57',
      hotelLimit: '150',
      currency: 'EUR',
    });
    expect(known(foreignRate('PL', 'DE', '2026-01-10'))).toMatchObject({
      amount: '49',
      hotelLimit: '170',
      currency: 'EUR',
    });
    const r = known(foreignRules('PL', '2026-01-10'));
    expect(r.bands!.map((b) => b.fraction)).toEqual(['1/3', '1/2', '1/1']);
    expect(r.mealReduction!.perMeal).toEqual({ Breakfast: '15', Lunch: '30', Dinner: '30' });
    // Dated: the annex of Dz.U. 2022 poz. 2302 from 2022-11-29; before, the 2013 rows (two sources: G, A).
    expect(known(foreignRate('PL', 'AT', '2026-01-10')).effectiveFrom).toBe('2022-11-29');
    expect(known(foreignRate('PL', 'AT', '2022-11-28'))).toMatchObject({ amount: '52', hotelLimit: '130' });
    expect(known(foreignRate('PL', 'DE', '2022-11-28'))).toMatchObject({ amount: '49', hotelLimit: '150' });
    expect(known(foreignRate('PL', 'FR', '2026-01-10'))).toMatchObject({ amount: '55', hotelLimit: '200' });
    expect(foreignRate('PL', 'RS', '2026-01-10')).toMatchObject({
      status: 'unknown',
      reported: [{ amount: '40', currency: 'EUR', hotelLimit: '110' }],
    });
  });
  it('kilometrówka since 2023-01-17: 0.89 / 1.15 / 0.69 / 0.42 zł', () => {
    expect(known(mileageRates('PL', '2023-01-17')).perKm).toEqual({
      CarUpTo900cc: '0.89',
      CarOver900cc: '1.15',
      Motorcycle: '0.69',
      Moped: '0.42',
    });
    expect(mileageRates('PL', '2023-01-16').status).toBe('unknown');
  });
  it('the 60 zł draft dieta is not in force anywhere in the table', () => {
    expect(TABLES.PL.domestic.some((d) => d.dailyRate === '60.00' || d.dailyRate === '60')).toBe(false);
  });
});

describe('Croatia (REGULATIONS.md, HR section)', () => {
  it('dnevnica from 2024: 30 € over 12 h, 15 € for 8–12 h; 2023: 26.54 / 13.27 €', () => {
    expect(amounts(known(domesticPerDiem('HR', '2024-01-01')).bands)).toEqual(['15.00', '30.00']);
    expect(amounts(known(domesticPerDiem('HR', '2023-12-31')).bands)).toEqual(['13.27', '26.54']);
  });
  it('one meal (lunch or dinner) −30 %, both −60 %; breakfast does not count', () => {
    const m = known(domesticPerDiem('HR', '2026-01-10')).mealReduction!;
    expect(m.countedMeals).toEqual(['Lunch', 'Dinner']);
    expect(m.byCount).toEqual(['30', '60']);
  });
  it('private car 0.50 €/km (2023: 0.40)', () => {
    expect(known(mileageRates('HR', '2026-01-10')).perKm.Car).toBe('0.50');
    expect(known(mileageRates('HR', '2023-06-01')).perKm.Car).toBe('0.40');
  });
  it.each([
    // REGULATIONS.md, second pass, HR foreign (Odluka NN 16/24, from 2024-02-08, rrif.hr)
    ['AT', '90.00'],
    ['BE', '90.00'],
    ['FR', '90.00'],
    ['DK', '90.00'],
    ['FI', '90.00'],
    ['IE', '90.00'],
    ['CZ', '80.00'],
    ['CY', '80.00'],
    ['EE', '80.00'],
    ['BG', '70.00'],
    ['GR', '70.00'],
    ['BA', '50.00'],
    ['ME', '50.00'],
  ])('foreign from 2024-02-08 (Odluka NN 16/24): %s %s €', (country, amount) => {
    const r = known(foreignRate('HR', country, '2024-02-08'));
    expect(r).toMatchObject({ amount, currency: 'EUR', effectiveFrom: '2024-02-08', effectiveTo: null });
    expect(r.source).toEqual({
      act: expect.stringContaining('NN 16/24'),
      provision: expect.stringMatching(/^čl\. 7 st\. 2 Pravilnika o porezu na dohodak/),
      reportedBy: expect.stringMatching(/^rrif\.hr/),
    });
    expect(foreignRate('HR', country, '2024-02-07').status).toBe('unknown');
  });
  it('unlisted countries 50 USD; DE, IT, SI, SK, PL, HU are unread rows (not unlisted): unknown, never 50 USD', () => {
    expect(known(foreignRules('HR', '2024-02-08')).unlistedCountryRate).toEqual({ amount: '50', currency: 'USD' });
    for (const c of ['DE', 'IT', 'SI', 'SK', 'PL', 'HU']) {
      const l = foreignRate('HR', c, '2026-01-10');
      expect(l.status).toBe('unknown');
      expect(l).not.toHaveProperty('reported');
      expect(l.status === 'unknown' && l.reason).toMatch(/rows after it .* are unread, so unknown/);
      expect(l.status === 'unknown' && l.reason).toMatch(/If the country is not listed in the Odluka at all, 50 USD/);
    }
  });
});

describe('Slovenia (REGULATIONS.md, SI section)', () => {
  it('dnevnica through 2022: over 12 up to 24 h 21.39 €, over 8 up to 12 h 10.68 €, over 6 up to 8 h 7.45 €', () => {
    const d = known(domesticPerDiem('SI', '2022-06-10'));
    expect(Object.fromEntries(d.bands.map((b) => [b.id, b.amount]))).toEqual({
      '>6-8h': '7.45',
      '>8-12h': '10.68',
      '>12-24h': '21.39',
    });
    expect(d).toMatchObject({ effectiveFrom: '2008-08-01', effectiveTo: '2022-12-31' });
    expect(d.mealReduction!.byBand!['>12-24h']!.Breakfast).toBe('10');
    expect(d.mealReduction!.byBand!['>8-12h']!.Breakfast).toBe('15');
  });
  it('from 2023-01-01 (UL RS 162/2022): 27.81 € and 13.88 €; over 6 up to 8 h unknown (9.69 or 7.45 €)', () => {
    const d = known(domesticPerDiem('SI', '2024-06-10'));
    expect(Object.fromEntries(d.bands.map((b) => [b.id, b.amount]))).toEqual({
      '>6-8h': null,
      '>8-12h': '13.88',
      '>12-24h': '27.81',
    });
    expect(d.effectiveFrom).toBe('2023-01-01');
    expect(d.source.act).toMatch(/162\/2022/);
    const unknown = ratesInForce('SI', '2024-06-10', 'SI').unknown.find((u) => u.kind === 'DomesticPerDiem');
    expect(unknown?.reason).toMatch(/>6-8h.*9\.69 € in one source and 7\.45 € in another/);
  });
  it('"nad 6 do 8 ur": every band excludes its lower edge and includes its upper one, at home and abroad', () => {
    const edges = (bands: Band[]) => bands.map((b) => [b.from.hours, b.from.inclusive, b.to!.hours, b.to!.inclusive]);
    expect(edges(known(domesticPerDiem('SI', '2026-01-10')).bands)).toEqual([
      [6, false, 8, true],
      [8, false, 12, true],
      [12, false, 24, true],
    ]);
    expect(edges(known(foreignRules('SI', '2025-01-10')).bands!)).toEqual([
      [6, false, 8, true],
      [8, false, 14, true],
      [14, false, 24, true],
    ]);
  });
  it('foreign >14–24 h 100 %, 8–14 h 75 %, 6–8 h 25 %; reductions −10/−35/−35 and −15/−40/−40; 20 % always paid', () => {
    const r = known(foreignRules('SI', '2026-01-10'));
    expect(Object.fromEntries(r.bands!.map((b) => [b.id, b.fraction]))).toEqual({
      '>6-8h': '1/4',
      '>8-14h': '3/4',
      '>14-24h': '1/1',
    });
    expect(r.mealReduction!.byBand!['>14-24h']).toEqual({ Breakfast: '10', Lunch: '35', Dinner: '35' });
    expect(r.mealReduction!.byBand!['>8-14h']).toEqual({ Breakfast: '15', Lunch: '40', Dinner: '40' });
    expect(r.mealReduction!.minimumPaidPercent).toBe('20');
  });
  it('foreign rates from 2021: HR, CZ, PL, SK 40 € each; 2026 amounts are unread, so unknown', () => {
    for (const c of ['HR', 'CZ', 'PL', 'SK']) {
      expect(known(foreignRate('SI', c, '2021-01-01'))).toMatchObject({ amount: '40', currency: 'EUR' });
      expect(known(foreignRate('SI', c, '2025-12-31')).amount).toBe('40');
      const later = foreignRate('SI', c, '2026-01-01');
      expect(later.status).toBe('unknown');
      expect(later.status === 'unknown' && later.reason).toMatch(/2025-12-31; a new regulation applies/);
    }
  });
  it('LU and HU: the sources disagree, so unknown with both figures reported', () => {
    expect(foreignRate('SI', 'LU', '2024-05-02')).toMatchObject({
      status: 'unknown',
      reported: [
        { amount: '55', currency: 'EUR', note: expect.stringMatching(/conflict/) },
        { amount: '40', currency: 'EUR', note: expect.stringMatching(/conflict/) },
      ],
    });
  });
  it('kilometrina 0.37 €/km through 2022-06-30, 0.43 €/km from 2023; July–December 2022 unknown (one source dates it)', () => {
    expect(known(mileageRates('SI', '2008-08-01')).perKm).toEqual({ Car: '0.37' });
    expect(known(mileageRates('SI', '2022-06-30')).perKm).toEqual({ Car: '0.37' });
    expect(mileageRates('SI', '2022-09-01').status).toBe('unknown');
    expect(known(mileageRates('SI', '2026-01-10')).perKm).toEqual({ Car: '0.43' });
  });
});

describe('the tables', () => {
  it('every version names its act, and no two versions of one item overlap', () => {
    for (const m of MARKETS) {
      const t = TABLES[m];
      const groups: { effectiveFrom: string | null; effectiveTo: string | null; source: { act: string } }[][] = [
        t.domestic,
        t.foreignRules,
        t.mileage,
        t.fuel,
        t.night,
        ...[...new Set(t.foreignRates.map((r) => `${r.countryCode}|${r.workerGroup ?? ''}`))].map((key) =>
          t.foreignRates.filter((r) => `${r.countryCode}|${r.workerGroup ?? ''}` === key),
        ),
      ];
      for (const rows of groups) {
        for (const r of rows) expect(r.source.act.length).toBeGreaterThan(5);
        const starts = rows.map((r) => r.effectiveFrom ?? '0000-01-01').sort();
        for (const s of starts) expect(rows.filter((r) => appliesOn(r, s))).toHaveLength(1);
      }
    }
  });
  it('adding next year is data: a new CZ version for 2027 answers 2027 and leaves 2026 alone', () => {
    const y2026 = TABLES.CZ.domestic[1]!;
    TABLES.CZ.domestic.push({
      ...y2026,
      effectiveFrom: '2027-01-01',
      effectiveTo: '2027-12-31',
      source: { act: 'test decree', provision: null },
    });
    try {
      expect(known(domesticPerDiem('CZ', '2027-03-01')).source.act).toBe('test decree');
      expect(known(domesticPerDiem('CZ', '2026-03-01')).source.act).toContain('573/2025');
    } finally {
      TABLES.CZ.domestic.pop();
    }
  });
  it('a malformed date is refused', () => {
    expect(() => domesticPerDiem('CZ', '2026-13-45')).toThrow(RangeError);
    expect(() => domesticPerDiem('CZ', '26-01-01')).toThrow(RangeError);
    expect(() => domesticPerDiem('CZ', '2026-02-30')).toThrow(RangeError);
  });
});

describe('ratesInForce (the flat rows the API returns)', () => {
  it('CZ 2026 without a country: domestic bands, meal reductions, mileage and fuel, each with source and dates', () => {
    const r = ratesInForce('CZ', '2026-03-01');
    const domestic = r.rows.filter((x) => x.kind === 'DomesticPerDiem');
    expect(domestic.map((x) => [x.item, x.value, x.maximum])).toEqual([
      ['5-12h', '155', '185'],
      ['>12-18h', '236', '284'],
      ['>18h', '370', '442'],
    ]);
    for (const x of r.rows) {
      expect(x.source.act).toBeTruthy();
      expect(x).toHaveProperty('effectiveFrom');
      expect(x).toHaveProperty('effectiveTo');
    }
    expect(r.rows.find((x) => x.kind === 'Mileage' && x.item === 'Car')).toMatchObject({
      value: '5.90',
      unit: 'PerKm',
      currencyCode: 'CZK',
    });
    expect(r.rows.find((x) => x.kind === 'FuelPrice' && x.item === 'Diesel')).toMatchObject({
      value: '34.10',
      unit: 'PerLitre',
    });
    expect(r.rows.find((x) => x.kind === 'FuelPrice' && x.item === 'Electricity')).toMatchObject({
      value: '7.20',
      unit: 'PerKWh',
    });
    expect(r.unknown.some((u) => u.kind === 'ForeignPerDiem')).toBe(true);
  });
  it('SK to CZ: the foreign row 600 CZK, no domestic rows', () => {
    const r = ratesInForce('SK', '2026-03-01', 'CZ');
    expect(r.rows.some((x) => x.kind === 'DomesticPerDiem')).toBe(false);
    expect(r.rows.find((x) => x.item === 'FullDay')).toMatchObject({
      countryCode: 'CZ',
      value: '600',
      currencyCode: 'CZK',
    });
    expect(r.unknown).toContainEqual(expect.objectContaining({ kind: 'FuelPrice' }));
    // From 2026-01-30 the mobile road-transport workers' own rate is a row of its own: 1,200 CZK.
    expect(r.rows.find((x) => x.item === 'FullDay/MobileRoadTransport')).toMatchObject({
      countryCode: 'CZ',
      value: '1200',
      currencyCode: 'CZK',
      effectiveFrom: '2026-01-30',
      source: { act: 'Opatrenie MF SR č. 9/2026 Z. z.' },
    });
    expect(ratesInForce('SK', '2026-01-29', 'CZ').rows.some((x) => x.item === 'FullDay/MobileRoadTransport')).toBe(
      false,
    );
    // SK to GB: the general 37 GBP, and the workers' rate unknown with the reason.
    const gb = ratesInForce('SK', '2026-03-01', 'GB');
    expect(gb.rows.find((x) => x.item === 'FullDay')).toMatchObject({ value: '37', currencyCode: 'GBP' });
    expect(gb.unknown).toContainEqual(
      expect.objectContaining({ kind: 'ForeignPerDiem', countryCode: 'GB', reason: expect.stringMatching(/mobile/) }),
    );
  });
  it('HR to DE: unknown with the reason, never a guessed amount', () => {
    const r = ratesInForce('HR', '2026-03-01', 'DE');
    expect(r.rows.some((x) => x.item === 'FullDay')).toBe(false);
    expect(r.unknown).toContainEqual(expect.objectContaining({ kind: 'ForeignPerDiem', countryCode: 'DE' }));
  });
  it('PL domestic: the night rows 67.50 zł per night', () => {
    const r = ratesInForce('PL', '2026-03-01', 'PL');
    expect(r.rows.find((x) => x.kind === 'NightAllowance' && x.item === 'LumpSum')).toMatchObject({
      value: '67.50',
      unit: 'PerNight',
      currencyCode: 'PLN',
    });
  });
});
