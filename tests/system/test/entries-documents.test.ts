// Issue 23 §1 through the gateway: the travel order and the settlement of one realistic entry per market as
// PDF in the market's language (docs/decisions/0137). A foreign trip to Austria (Slovenia: to Croatia) on
// 20 Nov 2026 (SI: 20 Nov 2025, its 2026 foreign rates are UNVERIFIED), 08:00–22:00 local with a free lunch,
// a mileage row, a foreign-currency expense and an advance. The text is read back with pdftotext and every
// field asserted; expected figures are computed by hand from ../shared/research/REGULATIONS.md and the
// recorded feeds (services/reference-fx/test/fixtures/feeds), not taken from the output. Each market's first
// page is rendered to PNG under .local/test-artifacts/documents for a person to look at.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Market } from '@travel/platform';
import { createTenant } from '@travel/employees/src/app/tenants';
import { limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { employeesRepositories } from '@travel/employees/src/infra/repositories';
import { ApiClient, repoRoot } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const ENTRIES = '/api/v1/travel-entries';
const ARTIFACTS = join(repoRoot(), '.local', 'test-artifacts', 'documents');

interface Case {
  market: Market;
  company: { name: string; address: string; registrationNumber: string; vatNumber: string };
  owner: [string, string];
  trip: Record<string, unknown>;
  row: Record<string, unknown>;
  /** No mileage where the product has no verified rate (SI): the table is left to fill by hand. */
  vehicle?: Record<string, unknown>;
  mileage?: Record<string, unknown>;
  expense: Record<string, unknown>;
  /** Every line the order must carry (label: value as printed). */
  order: string[];
  /** Every line the settlement must carry beyond the order's. */
  settlement: string[];
}

const row = (countryCode: string, arrival = '2026-11-20T21:00:00Z') => ({
  countryCode,
  departureTime: arrival.slice(0, 10) + 'T07:00:00Z',
  arrivalTime: arrival,
  lunchesProvided: 1,
});

const CASES: Case[] = [
  {
    market: 'HR',
    company: {
      name: 'Primjer d.o.o.',
      address: 'Ilica 1, 10000 Zagreb',
      registrationNumber: '080123456',
      vatNumber: 'HR94435151533',
    },
    owner: ['Đurđica', 'Čaćić'],
    trip: {
      purpose: 'Sastanak s dobavljačem',
      destination: 'Beč',
      destinationCountryCode: 'AT',
      advancePayment: 100,
      report: 'Dogovorena isporuka za prosinac.',
    },
    row: row('AT'),
    vehicle: { licensePlate: 'ZG-1234-AB', fuelType: 'Petrol' },
    mileage: { distanceKm: 120 },
    expense: { kind: 'Parking', amount: 50, currencyCode: 'CHF', description: 'Parkiralište' },
    order: [
      'PUTNI NALOG Broj 2026-00001',
      // The act under the title, as the research reads it (REGULATIONS.md third pass, foreign/HR.md note 1):
      // čl. 7 st. 2; čl. 13 was the old Pravilnik (NN 95/05).
      'Pravilnik o porezu na dohodak (NN 10/17 i dalje), čl. 7 st. 2',
      'Naziv: Primjer d.o.o.',
      'Adresa: Ilica 1, 10000 Zagreb',
      'Matični broj: 080123456',
      'OIB / PDV ID: HR94435151533',
      'Ime i prezime: Đurđica Čaćić',
      'Svrha putovanja: Sastanak s dobavljačem',
      'Odredište: Beč',
      'Država: AT',
      'Vrsta putovanja: inozemno',
      'Datum polaska: 20.11.2026 08:00',
      'Datum povratka: 20.11.2026 22:00',
      'Prijevozno sredstvo: osobni automobil',
      'Registarska oznaka: ZG-1234-AB',
      'Predujam: 100,00 EUR',
      'Datum predujma: 20.11.2026',
      // Not stored by the product: lines to fill by hand.
      'Radno mjesto: Putovanje',
      'Stanje brojila (početno / završno): Predujam',
      'Mjesto i datum izdavanja:',
      // The itinerary: the row's border crossings, 14 hours abroad.
      'AT 20.11.2026 08:00 20.11.2026 22:00 14',
    ],
    settlement: [
      'OBRAČUN PUTNOG NALOGA Broj 2026-00001',
      // Odluka NN 16/24: Austria 90 €; over 12 h the full rate; a free lunch −30 % → 63.00 €.
      ...['90,00 EUR', '0/1/0', '27,00', '63,00 EUR', '63,00'],
      // 0.50 €/km × 120 km = 60.00 €.
      '0,50',
      '60,00 EUR',
      // CHF 50 at HNB 0.925323 CHF/EUR on 2026-11-20 = 54.0352… → 54.04 €.
      'parkiranje Parkiralište 50,00 CHF HNB 54,04',
      'Troškovi: 114,04 EUR',
      'Dnevnice: 63,00 EUR',
      'Ukupno: 177,04 EUR',
      'Predujam: 100,00 EUR',
      'Za isplatu: 77,04 EUR',
      'Izvješće s puta: Dogovorena isporuka za prosinac.',
      'automatski odobreno Đurđica Čaćić',
    ],
  },
  {
    market: 'CZ',
    company: {
      name: 'Příklad s.r.o.',
      address: 'Vodičkova 681/18, 110 00 Praha 1',
      registrationNumber: '27074358',
      vatNumber: 'CZ27074358',
    },
    owner: ['Jiří', 'Dvořák'],
    trip: {
      purpose: 'Jednání s dodavatelem',
      destination: 'Vídeň',
      destinationCountryCode: 'AT',
      advancePayment: 2000,
    },
    row: row('AT'),
    vehicle: { licensePlate: '1AB 2345', fuelType: 'Diesel', fuelConsumption: 5.4 },
    mileage: { distanceKm: 120 },
    expense: { kind: 'Parking', amount: 12.5, currencyCode: 'EUR', description: 'Parkování' },
    order: [
      'CESTOVNÍ PŘÍKAZ Číslo 2026-00001',
      'Název: Příklad s.r.o.',
      'Sídlo: Vodičkova 681/18, 110 00 Praha 1',
      'IČO: 27074358',
      'DIČ: CZ27074358',
      'Jméno a příjmení: Jiří Dvořák',
      'Účel cesty: Jednání s dodavatelem',
      'Místo jednání: Vídeň',
      'Stát: AT',
      'Druh cesty: zahraniční',
      'Počátek cesty: 20.11.2026 08:00',
      'Konec cesty: 20.11.2026 22:00',
      'Určený dopravní prostředek: soukromé silniční motorové vozidlo',
      'SPZ: 1AB 2345',
      'Záloha: 2 000,00 CZK',
      'Datum zálohy: 20.11.2026',
      'AT 20.11.2026 08:00 20.11.2026 22:00 14',
    ],
    settlement: [
      'VYÚČTOVÁNÍ PRACOVNÍ CESTY Číslo 2026-00001',
      // vyhl. 489/2025 Sb.: Austria 45 EUR; 14 h abroad → two thirds (§170(1)) = 30 EUR; a free lunch at two
      // thirds −35 % of it (§179(3)) = 10.50 → 19.50 EUR × CNB 24.209 (20 Nov 2026) = 472.0755 → 472.08 Kč.
      ...['30,00 EUR', '0/1/0', '10,50', '19,50 EUR', '472,08 (CNB)'],
      '§ 170 odst. 1 zákoníku práce; příloha vyhlášky',
      // vyhl. 573/2025 Sb.: 5.90 Kč/km × 120 = 708; diesel 5.4 l/100 km × 120 km = 6.48 l × 34.10 = 220.968 → 928.97.
      ...['1AB 2345 120,00 5,90', '5,40', '34,10', '928,97 CZK'],
      // EUR 12.50 × CNB 24.209 = 302.6125 → 302.61 Kč.
      'parkovné Parkování 12,50 EUR CNB 302,61',
      'Výdaje: 1 231,58 CZK',
      'Stravné: 472,08 CZK',
      'Celkem: 1 703,66 CZK',
      'Záloha: 2 000,00 CZK',
      // 1 703.66 − 2 000.00: the employee returns 296.34 Kč.
      'Přeplatek k vrácení: 296,34 CZK',
      'schváleno automaticky Jiří Dvořák',
    ],
  },
  {
    market: 'SK',
    company: {
      name: 'Príklad s.r.o.',
      address: 'Hlavná 5, 811 01 Bratislava',
      registrationNumber: '35763469',
      vatNumber: 'SK2020273893',
    },
    owner: ['Ľubomír', 'Šťastný'],
    trip: { purpose: 'Rokovanie o zmluve', destination: 'Viedeň', destinationCountryCode: 'AT', advancePayment: 50 },
    row: row('AT'),
    vehicle: { licensePlate: 'BA-123AB', fuelType: 'Diesel', fuelConsumption: 6 },
    mileage: { distanceKm: 120, fuelUnitPriceOverride: 1.5 },
    expense: { kind: 'Parking', amount: 20, currencyCode: 'USD', description: 'Parkovanie' },
    order: [
      'CESTOVNÝ PRÍKAZ Číslo 2026-00001',
      'Názov: Príklad s.r.o.',
      'Sídlo: Hlavná 5, 811 01 Bratislava',
      'IČO: 35763469',
      'IČ DPH: SK2020273893',
      'Meno a priezvisko: Ľubomír Šťastný',
      'Účel cesty: Rokovanie o zmluve',
      'Miesto výkonu práce: Viedeň',
      'Druh cesty: zahraničná',
      'Začiatok cesty: 20.11.2026 08:00',
      'Koniec cesty: 20.11.2026 22:00',
      'Určený dopravný prostriedok: súkromné cestné motorové vozidlo',
      'EČV: BA-123AB',
      'Preddavok: 50,00 EUR',
      'AT 20.11.2026 08:00 20.11.2026 22:00 14',
    ],
    settlement: [
      'VYÚČTOVANIE PRACOVNEJ CESTY Číslo 2026-00001',
      // opatrenie 401/2012: Austria 45 €; over 12 h 100 %; a free lunch −40 % = 18.00 → 27.00 €.
      ...['45,00 EUR', '0/1/0', '18,00', '27,00 EUR', '27,00'],
      // 0.313 €/km × 120 = 37.56; 6 l/100 km × 120 km = 7.2 l × 1.50 € = 10.80 → 48.36 €.
      ...['BA-123AB 120,00 0,313', '6,00', '1,50', '48,36 EUR'],
      // USD 20 at ECB 1.1596 USD/EUR (20 Nov 2026) = 17.2473… → 17.25 €.
      'parkovné Parkovanie 20,00 USD ECB 17,25',
      'Výdavky: 65,61 EUR',
      'Stravné: 27,00 EUR',
      'Spolu: 92,61 EUR',
      'Doplatok: 42,61 EUR',
      'schválené automaticky Ľubomír Šťastný',
    ],
  },
  {
    market: 'SI',
    company: {
      name: 'Primer d.o.o.',
      address: 'Slovenska cesta 1, 1000 Ljubljana',
      registrationNumber: '1234567000',
      vatNumber: 'SI12345678',
    },
    owner: ['Žiga', 'Šuštar'],
    trip: {
      departureDate: '2025-11-20',
      returnDate: '2025-11-20',
      purpose: 'Sestanek s kupcem',
      destination: 'Zagreb',
      destinationCountryCode: 'HR',
      advancePayment: 100,
    },
    // 08:00–23:00 local, 15 hours abroad.
    row: row('HR', '2025-11-20T22:00:00Z'),
    // The kilometrina's newer values are UNVERIFIED (REGULATIONS.md): the product prices no SI mileage row.
    // No ECB rates are recorded for 2025: the manual rate applies (USD per EUR, the provider's direction).
    expense: {
      kind: 'Parking',
      amount: 22,
      currencyCode: 'USD',
      manualExchangeRate: 1.1,
      date: '2025-11-20',
      description: 'Parkirnina',
    },
    order: [
      // The number's year is the year the entry is created (API-SURFACE.md), not the trip's.
      'POTNI NALOG Številka 2026-00001',
      // The tax decree by its name since UL RS 76/08, through 162/22 (research foreign/SI.md 1a).
      'Uredba o davčni obravnavi povračil stroškov in drugih dohodkov iz delovnega razmerja',
      'Uradni list RS, št. 140/06 … 162/22',
      'Naziv: Primer d.o.o.',
      'Naslov: Slovenska cesta 1, 1000 Ljubljana',
      'Matična številka: 1234567000',
      'ID za DDV: SI12345678',
      'Ime in priimek: Žiga Šuštar',
      'Namen potovanja: Sestanek s kupcem',
      'Kraj: Zagreb',
      'Vrsta poti: v tujino',
      'Datum odhoda: 20.11.2025 08:00',
      'Datum vrnitve: 20.11.2025 23:00',
      // Not known without a mileage row: lines to fill by hand.
      'Prevozno sredstvo: Registrska številka: Stanje števca (začetno / končno): Akontacija: 100,00 EUR',
      'Akontacija: 100,00 EUR',
      'HR 20.11.2025 08:00 20.11.2025 23:00 15',
    ],
    settlement: [
      'OBRAČUN POTNEGA NALOGA Številka 2026-00001',
      // Croatia 40 €; over 14 h 100 %; a free lunch −35 % = 14.00 → 26.00 €.
      ...['40,00 EUR', '0/1/0', '14,00', '26,00 EUR', '26,00'],
      // USD 22 at 1.10 USD/EUR = 20.00 €.
      'parkirnina Parkirnina 22,00 USD MANUAL 1,1 20,00',
      'Stroški: 20,00 EUR',
      'Dnevnice: 26,00 EUR',
      'Skupaj: 46,00 EUR',
      // 46.00 − 100.00: the employee returns 54.00 €.
      'Za vračilo: 54,00 EUR',
      'samodejno odobreno Žiga Šuštar',
    ],
  },
  {
    market: 'PL',
    company: {
      name: 'Przykład sp. z o.o.',
      address: 'ul. Świętokrzyska 12, 00-916 Warszawa',
      registrationNumber: '012345678',
      vatNumber: '5260250995',
    },
    owner: ['Łucja', 'Żółkiewska'],
    trip: { purpose: 'Spotkanie z dostawcą', destination: 'Wiedeń', destinationCountryCode: 'AT', advancePayment: 300 },
    row: row('AT'),
    vehicle: { licensePlate: 'WA 12345', fuelType: 'Petrol', engineCapacityCc: 1598 },
    mileage: { distanceKm: 120, vehicleKind: 'CarOver900cc' },
    expense: { kind: 'Parking', amount: 12.5, currencyCode: 'EUR', description: 'Parking' },
    order: [
      'POLECENIE WYJAZDU SŁUŻBOWEGO Numer 2026-00001',
      // The rozporządzenie by the consolidated text the rate tables and REGULATIONS.md cite.
      'z dnia 29 stycznia 2013 r. (Dz.U. 2023 poz. 2190)',
      'Nazwa: Przykład sp. z o.o.',
      'Adres: ul. Świętokrzyska 12, 00-916 Warszawa',
      'REGON / KRS: 012345678',
      'NIP: 5260250995',
      'Imię i nazwisko: Łucja Żółkiewska',
      'Cel podróży: Spotkanie z dostawcą',
      'Miejscowość: Wiedeń',
      'Rodzaj podróży: zagraniczna',
      'Data wyjazdu: 20.11.2026 08:00',
      'Data powrotu: 20.11.2026 22:00',
      'Środek lokomocji: samochód prywatny',
      'Nr rejestracyjny: WA 12345',
      'Zaliczka: 300,00 PLN',
      'AT 20.11.2026 08:00 20.11.2026 22:00 14',
    ],
    settlement: [
      'ROZLICZENIE KOSZTÓW PODRÓŻY SŁUŻBOWEJ Numer 2026-00001',
      // Austria 57 €; over 12 h the full dieta; a free lunch −30 % = 17.10 → 39.90 € × NBP 4.2524 = 169.67 zł.
      ...['57,00 EUR', '0/1/0', '17,10', '39,90 EUR', '169,67 (NBP)'],
      // 1.15 zł/km (over 900 cm³) × 120 = 138.00 zł.
      '1,15',
      '138,00 PLN',
      // EUR 12.50 × NBP 4.2524 = 53.155 → 53.16 zł.
      'parking Parking 12,50 EUR NBP 53,16',
      'Wydatki: 191,16 PLN',
      'Diety: 169,67 PLN',
      'Razem: 360,83 PLN',
      'Do wypłaty: 60,83 PLN',
      'zatwierdzono automatycznie Łucja Żółkiewska',
    ],
  },
];

/** The PDF's text with runs of white space as one space (cells and lines read in order). */
function textOf(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');
}

function firstPagePng(pdf: Buffer, name: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', file, join(ARTIFACTS, name)]);
}

describe('entries: the travel order and the settlement as PDF', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-documents', {}, { fleet: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const tenantFor = async (c: Case) => {
    const created = await createTenant(employeesRepositories(stack.employees.deps.mongo), {
      ...c.company,
      market: c.market,
      ownerFirstName: c.owner[0],
      ownerLastName: c.owner[1],
    });
    return { ...created, api: new ApiClient(stack.gateway.url, created.apiKey) };
  };

  /** The case's entry, submitted (no workflow: approved at once, numbered) and its two PDFs. */
  async function settledEntry(c: Case) {
    const { api, employeeId } = await tenantFor(c);
    // No travelType: a trip abroad is foreign on its papers because it goes abroad (issue 34, 0190).
    const trip = { departureDate: '2026-11-20', returnDate: '2026-11-20', ...c.trip };
    const entry = await api.post(ENTRIES, { ...trip, perDiems: [c.row] });
    expect(entry.status).toBe(201);
    const id = entry.body.id as string;
    const date = trip.departureDate as string;
    if (c.vehicle && c.mileage)
      await mileageRow(api, id, date, { ...c.vehicle, ownerEmployeeId: employeeId }, c.mileage);
    const expense = await api.post(`${ENTRIES}/${id}/expenses`, { date, ...c.expense });
    expect({ status: expense.status, body: expense.body }).toMatchObject({ status: 201 });
    const submitted = await api.post(`${ENTRIES}/${id}/submit`, {});
    expect({ status: submitted.status, body: submitted.body }).toMatchObject({ status: 200 });
    return { api, id };
  }

  async function mileageRow(
    api: ApiClient,
    id: string,
    date: string,
    vehicleBody: Record<string, unknown>,
    row: Record<string, unknown>,
  ) {
    const vehicle = await api.post('/api/v1/vehicles', {
      type: 'Personal',
      name: 'Own car',
      category: 1,
      ...vehicleBody,
    });
    expect({ status: vehicle.status, body: vehicle.body }).toMatchObject({ status: 201 });
    const mileage = await api.post(`${ENTRIES}/${id}/expenses`, {
      kind: 'Mileage',
      date,
      vehicleId: vehicle.body.id,
      ...row,
    });
    expect({ status: mileage.status, body: mileage.body }).toMatchObject({ status: 201 });
  }

  /** The bytes as sent (the JSON client reads text). */
  const pdfOf = async (api: ApiClient, id: string, kind: string) => {
    const res = await api.bytes(`${ENTRIES}/${id}/documents/${kind}`);
    expect({ kind, status: res.status, type: res.headers.get('content-type') }).toEqual({
      kind,
      status: 200,
      type: 'application/pdf',
    });
    return res.body;
  };

  it.each(CASES.map((c) => [c.market, c] as const))(
    '%s: every field of the order and the settlement',
    async (market, c) => {
      const { api, id } = await settledEntry(c);
      const order = await pdfOf(api, id, 'travel-order');
      const settlement = await pdfOf(api, id, 'settlement');
      firstPagePng(order, `${market}-travel-order`);
      firstPagePng(settlement, `${market}-settlement`);
      const orderText = textOf(order);
      const settlementText = textOf(settlement);
      expect(c.order.filter((line) => !orderText.includes(line))).toEqual([]);
      // The settlement repeats the order's fields under its own title (the order's first line).
      expect([...c.order.slice(1), ...c.settlement].filter((line) => !settlementText.includes(line))).toEqual([]);
      // No paper cites the old HR Pravilnik's article (issue 34).
      expect(settlementText).not.toMatch(/čl\. 13\b/);
      // The job title is not stored: a line left to fill by hand, never invented.
      expect(orderText).not.toMatch(/undefined|null|NaN/);
      expect(settlementText).not.toMatch(/undefined|null|NaN/);
    },
  );

  it('embeds a font with every letter of the five languages', async () => {
    const letters = 'čćđšžřůěłąęśźżőäôĺľŕČĆĐŠŽŘŮĚŁĄĘŚŹŻŐÄÔĹĽŔ';
    const { api } = await tenantFor(CASES[0]);
    const entry = await api.post(ENTRIES, { departureDate: '2026-11-20', returnDate: '2026-11-20', purpose: letters });
    const pdf = await pdfOf(api, entry.body.id, 'travel-order');
    expect(textOf(pdf)).toContain(letters);
    const fonts = execFileSync('pdffonts', ['-'], { input: pdf }).toString();
    expect(fonts).toMatch(/DejaVuSans/);
    // Every font embedded ("emb" yes) and subset ("sub" yes).
    for (const line of fonts.split('\n').slice(2).filter(Boolean)) expect(line).toMatch(/\byes\s+yes\s+yes\b/);
  });

  it('a trip request has an order but no settlement; another employee’s or company’s entry is 404', async () => {
    const { api } = await tenantFor(CASES[1]);
    const request = await api.post(ENTRIES, {
      departureDate: '2026-11-20',
      returnDate: '2026-11-20',
      purpose: 'Školení',
      isRequest: true,
    });
    expect(request.status).toBe(201);
    const order = textOf(await pdfOf(api, request.body.id, 'travel-order'));
    expect(order).toContain('CESTOVNÍ PŘÍKAZ Číslo ____');
    expect(order).toContain('Účel cesty: Školení');
    const settlement = await api.get(`${ENTRIES}/${request.body.id}/documents/settlement`);
    expect(settlement.status).toBe(409);
    expect(settlement.body).toMatchObject({ code: 'INVALID_STATE', status: 409 });
    expect(settlement.body.detail).toMatch(/trip request/);

    // Another employee of the same company without ReadAllEntries: 404 too, as for the entry itself.
    const colleague = await limitedCaller(api, []);
    for (const kind of ['travel-order', 'settlement']) {
      const res = await colleague.api.get(`${ENTRIES}/${request.body.id}/documents/${kind}`);
      expect({ kind, status: res.status }).toEqual({ kind, status: 404 });
    }

    const other = await tenantFor(CASES[0]);
    for (const kind of ['travel-order', 'settlement']) {
      const res = await other.api.get(`${ENTRIES}/${request.body.id}/documents/${kind}`);
      expect({ kind, status: res.status, code: res.body.code }).toEqual({ kind, status: 404, code: 'NOT_FOUND' });
    }
  });
});
