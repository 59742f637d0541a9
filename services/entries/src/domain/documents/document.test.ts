import type { TravelEntry } from '../entry';
import type { PerDiem } from '../per-diem-row';
import { namedEmployeeIds, settlement, travelOrder, type DocumentParties, type PrintedDocument } from './document';

const parties: DocumentParties = {
  company: { name: 'Příklad s.r.o.', address: null, registrationNumber: '27074358', vatNumber: null },
  names: new Map([
    ['e1', 'Jiří Dvořák'],
    ['a1', 'Eva Nováková'],
  ]),
  plates: new Map(),
};

const row = { countryCode: 'AT', departureTime: '2026-11-20T07:00:00Z', arrivalTime: '2026-11-20T21:00:00Z' };
const perDiem = {
  ...row,
  date: '2026-11-20',
  hours: 14,
  breakfastsProvided: 0,
  lunchesProvided: 1,
  dinnersProvided: 0,
  grossAmount: '30.00',
  amount: '19.50',
  payableAmount: '19.50',
  currencyCode: 'EUR',
  amountInBaseCurrency: '472.08',
  exchangeRateSource: 'CNB',
  source: { act: 'Zákon č. 262/2006 Sb.', provision: '§170, §179' },
  rule: 'foreign',
} as unknown as PerDiem;

const entry = (over: Partial<TravelEntry>): TravelEntry =>
  ({
    _id: 'x',
    entryNumber: '2026-00007',
    employeeId: 'e1',
    isRequest: false,
    travelType: 'Foreign',
    departureDate: '2026-11-20',
    returnDate: '2026-11-20',
    destination: 'Vídeň',
    purpose: 'Jednání',
    destinationCountryCode: 'AT',
    advancePayment: '2000',
    currencyCode: 'CZK',
    advancePaymentDate: '2026-11-20',
    advancePaymentInBaseCurrency: '2000.00',
    baseCurrency: 'CZK',
    expenses: [],
    perDiems: [perDiem],
    report: null,
    auditLog: [
      {
        action: 'Submitted',
        employeeId: 'e1',
        at: new Date('2026-11-19T08:00:00Z'),
        comment: null,
        status: 1,
        phase: 1,
        step: null,
      },
      {
        action: 'Authorized',
        employeeId: 'a1',
        at: new Date('2026-11-19T09:00:00Z'),
        comment: 'OK',
        status: 0,
        phase: null,
        step: 0,
      },
      {
        action: 'Approved',
        employeeId: 'a1',
        at: new Date('2026-11-23T09:00:00Z'),
        comment: null,
        status: 3,
        phase: 0,
        step: 0,
      },
    ],
    ...over,
  }) as unknown as TravelEntry;

const field = (doc: PrintedDocument, label: string) =>
  doc.sections.flatMap((s) => s.fields ?? []).find((f) => f.label === label)?.value;
const table = (doc: PrintedDocument, title: string) => doc.sections.find((s) => s.title === title)?.table?.rows;

describe('the printed travel order and settlement (docs/decisions/0137)', () => {
  it('a trip request: no number yet, what is not stored is left blank, never invented', () => {
    const order = travelOrder('CZ', entry({ entryNumber: '', isRequest: true, expenses: [] }), parties);
    expect(order.title).toBe('CESTOVNÍ PŘÍKAZ Číslo ____');
    expect(field(order, 'Pracovní zařazení')).toBe('');
    expect(field(order, 'Určený dopravní prostředek')).toBe('');
    expect(field(order, 'Sídlo')).toBe('');
    expect(field(order, 'Počátek cesty')).toBe('20.11.2026 08:00');
  });

  it('the order shows the trip authorization, the settlement the settlement’s approvals', () => {
    const e = entry({});
    expect(table(travelOrder('CZ', e, parties), 'Schválení')).toEqual([
      ['předloženo', 'Jiří Dvořák', '19.11.2026 09:00', ''],
      ['cesta povolena', 'Eva Nováková', '19.11.2026 10:00', 'OK'],
    ]);
    expect(table(settlement('CZ', e, parties), 'Schválení')).toEqual([
      ['schváleno', 'Eva Nováková', '23.11.2026 10:00', ''],
    ]);
  });

  it("a delegate's approval names the delegate and the approver they decided for (issue 39 §2, 0205)", () => {
    const [submitted, authorized, approved] = entry({}).auditLog!;
    const byDelegate = { ...approved, employeeId: 'd1', onBehalfOfEmployeeId: 'a1' };
    const names = new Map([...parties.names, ['d1', 'Petr Svoboda']]);
    const e = entry({ auditLog: [submitted, authorized, byDelegate] });
    expect(namedEmployeeIds(e)).toEqual(['e1', 'a1', 'd1']);
    expect(table(settlement('CZ', e, { ...parties, names }), 'Schválení')).toEqual([
      ['schváleno', 'Petr Svoboda (v zastoupení: Eva Nováková)', '23.11.2026 10:00', ''],
    ]);
    expect(table(settlement('PL', e, { ...parties, names }), 'Zatwierdzenia')?.[0]?.[1]).toBe(
      'Petr Svoboda (w zastępstwie: Eva Nováková)',
    );
  });

  it('per-diem rows carry the meal reduction (exact decimals) and their legal basis', () => {
    expect(table(settlement('CZ', entry({}), parties), 'Stravné')).toEqual([
      [
        '20.11.2026',
        'AT',
        '14',
        '30,00 EUR',
        '0/1/0',
        '10,50',
        '19,50 EUR',
        '472,08 (CNB)',
        'Zákon č. 262/2006 Sb., §170, §179',
      ],
    ]);
  });

  it('HR papers cite the Pravilnik as the research reads it (čl. 7 st. 2), not the old čl. 13 (issue 34)', () => {
    for (const doc of [travelOrder('HR', entry({}), parties), settlement('HR', entry({}), parties)]) {
      expect(doc.basis).toBe('Pravilnik o porezu na dohodak (NN 10/17 i dalje), čl. 7 st. 2');
      expect(doc.basis).not.toMatch(/čl\. 13/);
    }
  });

  it('the papers print the travel type the entry says', () => {
    expect(field(travelOrder('CZ', entry({}), parties), 'Druh cesty')).toBe('zahraniční');
    expect(field(travelOrder('PL', entry({ travelType: 'Domestic' }), parties), 'Rodzaj podróży')).toBe('krajowa');
  });

  it('a row paid at the company’s own rate names the policy, who confirmed it and when (0188)', () => {
    const company = {
      ...perDiem,
      rateBasis: 'CompanyRate',
      source: {
        act: 'Company per-diem policy from 2026-01-01',
        provision: null,
        reportedBy: 'confirmed by emp_7 on 2026-02-01T09:00:00.000Z',
      },
    } as unknown as PerDiem;
    expect(table(settlement('CZ', entry({ perDiems: [company] }), parties), 'Stravné')?.[0]?.at(-1)).toBe(
      'Company per-diem policy from 2026-01-01, confirmed by emp_7 on 2026-02-01T09:00:00.000Z',
    );
  });

  it('an advance above the total is owed back, printed without its sign', () => {
    const doc = settlement('CZ', entry({}), parties);
    expect(field(doc, 'Přeplatek k vrácení')).toBe('1 527,92 CZK');
    expect(field(doc, 'Doplatek')).toBeUndefined();
  });
});
