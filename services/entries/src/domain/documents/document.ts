// The travel order and the settlement of an entry as a printable document, the same layout for every
// market and the market's own words (docs/decisions/0137). Pure: the app reads the entry and its parties,
// the infra's renderer draws this. What the product does not store prints as an empty line to fill by hand.
import type { Market } from '@travel/platform';
import { Decimal } from '../amounts';
import { entryFigures } from '../entry-figures';
import type { TravelEntry } from '../entry';
import type { Expense } from '../expense';
import type { PerDiem } from '../per-diem-row';
import type { AuditRecord } from '../workflow';
import type { FormLabels } from './form';
import { formatAmount, formatDate, formatDateTime } from './format';
import { CZ_FORM } from './cz';
import { HR_FORM } from './hr';
import { PL_FORM } from './pl';
import { SI_FORM } from './si';
import { SK_FORM } from './sk';
import { policySections } from './policy-section';

export const FORMS: Record<Market, FormLabels> = { HR: HR_FORM, SI: SI_FORM, SK: SK_FORM, CZ: CZ_FORM, PL: PL_FORM };

export type DocumentKind = 'travel-order' | 'settlement';

/** Who an entry's papers name, as the employees and fleet contexts know them. */
export interface DocumentParties {
  company: { name: string; address: string | null; registrationNumber: string | null; vatNumber: string | null };
  /** Employee id → "First Last". */
  names: ReadonlyMap<string, string>;
  /** Vehicle id → licence plate (null when fleet has none). */
  plates: ReadonlyMap<string, string | null>;
}

/** One labelled value; an empty value is a line to fill by hand. */
export interface Field {
  label: string;
  value: string;
}

export interface Table {
  head: string[];
  rows: string[][];
  /** Relative column widths. */
  widths: number[];
}

export interface Section {
  title: string;
  fields?: Field[];
  table?: Table;
}

export interface PrintedDocument {
  title: string;
  basis: string;
  sections: Section[];
  /** Signature lines (label over an empty line). */
  signatures: string[];
  /** The label of the place-and-date line above the signatures (filled by hand). */
  issuedLine: string;
}

/** The vehicle ids of an entry's mileage rows (fleet is asked for their plates). */
export const mileageVehicleIds = (e: TravelEntry): string[] => [
  ...new Set(e.expenses.flatMap((x) => (x.kind === 'Mileage' && x.vehicleId ? [x.vehicleId] : []))),
];

/** Everyone the papers name: the employee and whoever acted in the audit log. */
export const namedEmployeeIds = (e: TravelEntry): string[] => [
  ...new Set([
    e.employeeId,
    ...(e.auditLog ?? []).flatMap((r) => [r.employeeId, ...(r.onBehalfOfEmployeeId ? [r.onBehalfOfEmployeeId] : [])]),
  ]),
];

/** Per-diem rows in time order: their departure and arrival are the itinerary's border crossings. */
const rowsInOrder = (e: TravelEntry): PerDiem[] =>
  [...(e.perDiems ?? [])].sort((a, b) => a.departureTime.localeCompare(b.departureTime));

/** The row's legal basis; a row paid at the company's own rate names the policy and who confirmed it, when (0188). */
const sourceText = (r: PerDiem): string =>
  r.source
    ? [
        r.source.act,
        r.source.provision,
        r.rateBasis === 'CompanyRate' || r.rateBasis === 'CompanyConfirmedReported' ? r.source.reportedBy : null,
      ]
        .filter(Boolean)
        .join(', ')
    : r.rule;

const decimalsOf = (text: string): number => (text.split('.')[1] ?? '').length;

const or = (value: string | null | undefined): string => value ?? '';

function companySection(l: FormLabels, p: DocumentParties): Section {
  return {
    title: l.company,
    fields: [
      { label: l.companyName, value: p.company.name },
      { label: l.address, value: or(p.company.address) },
      { label: l.registrationNumber, value: or(p.company.registrationNumber) },
      { label: l.vatNumber, value: or(p.company.vatNumber) },
    ],
  };
}

function employeeSection(l: FormLabels, e: TravelEntry, p: DocumentParties): Section {
  return {
    title: l.employee,
    fields: [
      { label: l.employeeName, value: or(p.names.get(e.employeeId)) },
      // The product keeps no job title: a line to fill by hand.
      { label: l.jobTitle, value: '' },
    ],
  };
}

function tripSection(m: Market, l: FormLabels, e: TravelEntry, p: DocumentParties): Section {
  const rows = rowsInOrder(e);
  const mileage = e.expenses.filter((x) => x.kind === 'Mileage');
  const plates = [...new Set(mileage.map((x) => (x.vehicleId ? p.plates.get(x.vehicleId) : null)).filter(Boolean))];
  return {
    title: l.trip,
    fields: [
      { label: l.purpose, value: or(e.purpose) },
      { label: l.destination, value: or(e.destination) },
      { label: l.destinationCountry, value: or(e.destinationCountryCode) },
      { label: l.travelType, value: e.travelType === 'Foreign' ? l.foreign : l.domestic },
      // The rows' times when there are rows; the entry keeps dates only otherwise.
      {
        label: l.departure,
        value: rows.length ? formatDateTime(m, rows[0].departureTime) : formatDate(e.departureDate),
      },
      {
        label: l.return,
        value: rows.length ? formatDateTime(m, rows[rows.length - 1].arrivalTime) : formatDate(e.returnDate),
      },
      // Known only when a mileage row says a private car was driven; otherwise filled in by hand.
      { label: l.transport, value: mileage.length ? l.privateCar : '' },
      { label: l.vehicle, value: plates.join(', ') },
      { label: l.odometer, value: '' },
      { label: l.advance, value: `${formatAmount(m, e.advancePayment)} ${e.currencyCode}` },
      { label: l.advanceDate, value: formatDate(e.advancePaymentDate) },
    ],
  };
}

function itinerarySection(m: Market, l: FormLabels, e: TravelEntry): Section {
  return {
    title: l.itinerary,
    table: {
      head: [l.country, l.from, l.to, l.hours],
      widths: [1, 2, 2, 1],
      rows: rowsInOrder(e).map((r) => [
        r.countryCode,
        formatDateTime(m, r.departureTime),
        formatDateTime(m, r.arrivalTime),
        String(r.hours),
      ]),
    },
  };
}

function perDiemSection(m: Market, l: FormLabels, e: TravelEntry): Section {
  const reduction = (r: PerDiem): string =>
    r.grossAmount !== null && r.amount !== null
      ? formatAmount(m, new Decimal(r.grossAmount).minus(r.amount).toFixed(decimalsOf(r.amount)))
      : '';
  return {
    title: l.perDiems,
    table: {
      head: [
        l.date,
        l.country,
        l.hours,
        l.grossAmount,
        l.meals,
        l.reduction,
        l.payable,
        `${l.inBaseCurrency} ${e.baseCurrency}`,
        l.legalBasis,
      ],
      widths: [1.2, 0.7, 0.6, 1.3, 0.9, 1, 1.3, 1.5, 2.6],
      rows: rowsInOrder(e).map((r) => [
        formatDate(r.date),
        r.countryCode,
        String(r.hours),
        r.grossAmount === null ? '' : `${formatAmount(m, r.grossAmount)} ${or(r.currencyCode)}`,
        `${r.breakfastsProvided}/${r.lunchesProvided}/${r.dinnersProvided}`,
        reduction(r),
        r.payableAmount === null ? '' : `${formatAmount(m, r.payableAmount)} ${or(r.currencyCode)}`,
        `${formatAmount(m, r.amountInBaseCurrency)}${r.exchangeRateSource ? ` (${r.exchangeRateSource})` : ''}`,
        sourceText(r),
      ]),
    },
  };
}

function mileageSection(m: Market, l: FormLabels, e: TravelEntry, p: DocumentParties): Section {
  const rows = e.expenses.filter((x) => x.kind === 'Mileage');
  return {
    title: l.mileage,
    table: {
      head: [l.date, l.vehicle, l.distance, l.ratePerKm, l.consumption, l.fuelPrice, l.amount],
      widths: [1, 1.2, 0.8, 1.1, 1.1, 1, 1.3],
      rows: rows.map((x) => [
        formatDate(x.date),
        x.vehicleId ? or(p.plates.get(x.vehicleId)) : '',
        formatAmount(m, x.distanceKm),
        formatAmount(m, x.ratePerKm),
        formatAmount(m, x.fuelConsumption),
        formatAmount(m, x.fuelUnitPrice),
        `${formatAmount(m, x.amountInBaseCurrency)} ${e.baseCurrency}`,
      ]),
    },
  };
}

function expenseSection(m: Market, l: FormLabels, e: TravelEntry): Section {
  const rows = e.expenses.filter((x) => x.kind !== 'Mileage');
  const fx = (x: Expense): string =>
    x.exchangeRateSource === 'MANUAL' && x.manualExchangeRate
      ? // Stored with ten decimals; printed as given (1.1, not 1.1000000000).
        `MANUAL ${formatAmount(m, new Decimal(x.manualExchangeRate).toFixed())}`
      : or(x.exchangeRateSource);
  return {
    title: l.expenses,
    table: {
      head: [l.date, l.kind, l.description, l.amount, l.rateSource, `${l.inBaseCurrency} ${e.baseCurrency}`],
      widths: [1, 1.2, 2.2, 1.3, 1, 1.3],
      rows: rows.map((x) => [
        formatDate(x.date),
        l.kinds[x.kind],
        or(x.description),
        `${formatAmount(m, x.amount)} ${x.currencyCode}`,
        fx(x),
        formatAmount(m, x.amountInBaseCurrency),
      ]),
    },
  };
}

function totalsSection(m: Market, l: FormLabels, e: TravelEntry): Section {
  const f = entryFigures(e);
  const base = (text: string | null) => (text === null ? '' : `${formatAmount(m, text)} ${e.baseCurrency}`);
  const owed = f.amountDue !== null && f.amountDue.startsWith('-');
  return {
    title: l.totals,
    fields: [
      { label: l.expenseTotal, value: base(f.expenseTotal) },
      { label: l.perDiemTotal, value: base(f.perDiemTotal) },
      { label: l.total, value: base(f.total) },
      { label: l.advance, value: base(e.advancePaymentInBaseCurrency) },
      // Negative: the employee pays the difference back.
      { label: owed ? l.amountOwed : l.amountDue, value: base(owed ? f.amountDue!.slice(1) : f.amountDue) },
    ],
  };
}

function approvalSection(m: Market, l: FormLabels, records: readonly AuditRecord[], p: DocumentParties): Section {
  return {
    title: l.approvals,
    table: {
      head: [l.action, l.person, l.time, l.comment],
      widths: [1.4, 1.6, 1.2, 2],
      rows: records.map((r) => [
        l.actions[r.action],
        // A delegate's decision names the approver they decided for (docs/decisions/0205).
        r.onBehalfOfEmployeeId
          ? `${or(p.names.get(r.employeeId))} (${l.onBehalfOf}: ${or(p.names.get(r.onBehalfOfEmployeeId))})`
          : or(p.names.get(r.employeeId)),
        formatDateTime(m, r.at),
        or(r.comment),
      ]),
    },
  };
}

/** The travel order: who travels where, why, when and how, with the trip's authorization. */
export function travelOrder(m: Market, e: TravelEntry, p: DocumentParties): PrintedDocument {
  const l = FORMS[m];
  return {
    title: `${l.orderTitle} ${l.entryNumber} ${e.entryNumber || '____'}`,
    basis: l.orderBasis,
    sections: [
      companySection(l, p),
      employeeSection(l, e, p),
      tripSection(m, l, e, p),
      itinerarySection(m, l, e),
      approvalSection(
        m,
        l,
        (e.auditLog ?? []).filter((r) => r.phase === 1 || r.action === 'Authorized'),
        p,
      ),
    ],
    signatures: [l.orderedBy, l.traveller],
    issuedLine: l.issued,
  };
}

/** The settlement: per-diems, mileage, expenses, the advance and what is due, with the settlement's approvals. */
export function settlement(m: Market, e: TravelEntry, p: DocumentParties): PrintedDocument {
  const l = FORMS[m];
  return {
    title: `${l.settlementTitle} ${l.entryNumber} ${e.entryNumber}`,
    basis: l.settlementBasis,
    sections: [
      companySection(l, p),
      employeeSection(l, e, p),
      tripSection(m, l, e, p),
      itinerarySection(m, l, e),
      perDiemSection(m, l, e),
      mileageSection(m, l, e, p),
      expenseSection(m, l, e),
      // The expense policy's findings and missing-receipt declarations (docs/decisions/0203, 0204).
      ...policySections(m, l, e, p.names),
      totalsSection(m, l, e),
      { title: l.report, fields: [{ label: l.report, value: or(e.report) }] },
      approvalSection(
        m,
        l,
        (e.auditLog ?? []).filter((r) => r.phase !== 1 && r.action !== 'Authorized'),
        p,
      ),
    ],
    signatures: [l.traveller, l.checkedBy, l.approvedBy],
    issuedLine: l.issued,
  };
}
