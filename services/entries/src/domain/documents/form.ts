// What one market's travel order and settlement say, in its language (docs/decisions/0137). Each market
// has its own module with these words; the layout (document.ts) is the same for all five.
import type { ExpenseKind } from '../expense';
import type { WorkflowAction } from '../workflow';

export interface FormLabels {
  /** The act a form follows, printed under its title. */
  orderBasis: string;
  settlementBasis: string;
  orderTitle: string;
  settlementTitle: string;
  entryNumber: string;
  /** Place and date of issue (filled by hand: the product keeps neither). */
  issued: string;
  /** Odometer at the start and the end (HR custom for a private car; filled by hand). */
  odometer: string;
  /** The written trip report (the entry's `report`). */
  report: string;
  company: string;
  companyName: string;
  address: string;
  registrationNumber: string;
  vatNumber: string;
  employee: string;
  employeeName: string;
  jobTitle: string;
  trip: string;
  purpose: string;
  destination: string;
  destinationCountry: string;
  travelType: string;
  domestic: string;
  foreign: string;
  departure: string;
  return: string;
  transport: string;
  privateCar: string;
  vehicle: string;
  advance: string;
  advanceDate: string;
  itinerary: string;
  country: string;
  from: string;
  to: string;
  hours: string;
  perDiems: string;
  date: string;
  grossAmount: string;
  /** Column head: meals provided, breakfast / lunch / dinner. */
  meals: string;
  reduction: string;
  payable: string;
  legalBasis: string;
  mileage: string;
  distance: string;
  ratePerKm: string;
  consumption: string;
  fuelPrice: string;
  amount: string;
  expenses: string;
  kind: string;
  description: string;
  rateSource: string;
  inBaseCurrency: string;
  kinds: Record<ExpenseKind, string>;
  totals: string;
  expenseTotal: string;
  perDiemTotal: string;
  total: string;
  amountDue: string;
  amountOwed: string;
  approvals: string;
  action: string;
  person: string;
  time: string;
  comment: string;
  actions: Record<WorkflowAction, string>;
  /** Before the approver's name on a delegate's decision: "Jan Nowak (w zastępstwie: Anna Kowalska)" (0205). */
  onBehalfOf: string;
  signatures: string;
  traveller: string;
  orderedBy: string;
  checkedBy: string;
  approvedBy: string;
}
