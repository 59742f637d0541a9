// What the expense policy finds on an entry (issue 39 §1, docs/decisions/0203), worked out purely from the
// entry's expenses in the base currency (their stored, FX-converted amounts: nothing is converted again).
import { Decimal } from './amounts';
import type { Expense, ExpenseKind } from './expense';
import { rulesFor, versionOn, type ExpensePolicy, type OnBreach, type RuleScope } from './expense-policy';
import { declarationHolds } from './receipt-declaration';

/** PerItem: one expense; PerDay: the kind's expenses of one date; PerTrip: the kind's expenses of the entry. */
export type FindingCheck = 'PerItem' | 'PerDay' | 'PerTrip' | 'ReceiptMissing';

export interface PolicyFinding {
  /** The rule's name and the version it belongs to. */
  rule: string;
  effectiveFrom: string;
  check: FindingCheck;
  kind: ExpenseKind;
  /** The expense judged; null for a per-day (then `date` names the day) or per-trip finding. */
  expenseId: string | null;
  date: string | null;
  /** Decimal text in the base currency: what was judged, the rule's limit, and how far above it. */
  amount: string;
  limit: string;
  amountOver: string;
  onBreach: OnBreach;
}

/** What of an expense the policy judges. */
export type JudgedExpense = Pick<
  Expense,
  '_id' | 'kind' | 'date' | 'amount' | 'currencyCode' | 'amountInBaseCurrency' | 'receiptAttachmentIds'
> &
  Pick<Expense, 'missingReceiptDeclaration'>;

export interface JudgedEntry {
  departureDate: string;
  expenses: readonly JudgedExpense[];
}

/**
 * Every breach of `policy` on the entry, in a fixed order (per item and receipt by expense, then per day,
 * then per trip) so that the same entry and policy always store the same list. An expense is judged by the
 * version in force on its date, a day by the version of that day, the trip by the version in force on the
 * departure date. A cap is breached when the amount is strictly above it.
 */
export function policyFindings(
  entry: JudgedEntry,
  policy: ExpensePolicy,
  scope: RuleScope,
  /** The base currency's minor digits: the amounts' places. */
  places: number,
): PolicyFinding[] {
  if (policy.versions.length === 0) return [];
  const findings: PolicyFinding[] = [];
  const over = (amount: Decimal, limit: string | null) => limit !== null && amount.greaterThan(limit);
  const finding = (
    rule: { name: string; onBreach: OnBreach },
    effectiveFrom: string,
    check: FindingCheck,
    kind: ExpenseKind,
    at: { expenseId: string | null; date: string | null },
    amount: Decimal,
    limit: string,
  ): PolicyFinding => ({
    rule: rule.name,
    effectiveFrom,
    check,
    kind,
    ...at,
    amount: amount.toFixed(places),
    limit,
    amountOver: amount.minus(limit).toFixed(places),
    onBreach: rule.onBreach,
  });

  for (const x of entry.expenses) {
    const version = versionOn(policy, x.date);
    const amount = new Decimal(x.amountInBaseCurrency);
    for (const rule of rulesFor(version, x.kind, scope)) {
      const at = { expenseId: x._id, date: x.date };
      if (over(amount, rule.maxPerItem))
        findings.push(finding(rule, version!.effectiveFrom, 'PerItem', x.kind, at, amount, rule.maxPerItem!));
      if (over(amount, rule.receiptRequiredAbove) && !receiptSatisfied(x, rule.missingReceiptDeclarationAllowed))
        findings.push(
          finding(rule, version!.effectiveFrom, 'ReceiptMissing', x.kind, at, amount, rule.receiptRequiredAbove!),
        );
    }
  }

  const days = sums(entry.expenses, (x) => `${x.kind}|${x.date}`);
  for (const { kind, date, total } of days) {
    const version = versionOn(policy, date);
    for (const rule of rulesFor(version, kind, scope))
      if (over(total, rule.maxPerDay))
        findings.push(
          finding(rule, version!.effectiveFrom, 'PerDay', kind, { expenseId: null, date }, total, rule.maxPerDay!),
        );
  }

  const trip = versionOn(policy, entry.departureDate);
  for (const { kind, total } of sums(entry.expenses, (x) => x.kind))
    for (const rule of rulesFor(trip, kind, scope))
      if (over(total, rule.maxPerTrip))
        findings.push(
          finding(rule, trip!.effectiveFrom, 'PerTrip', kind, { expenseId: null, date: null }, total, rule.maxPerTrip!),
        );
  return findings;
}

/** A receipt attachment is named, or a declaration that still holds is, where the rule accepts one. */
function receiptSatisfied(x: JudgedExpense, declarationAllowed: boolean): boolean {
  if ((x.receiptAttachmentIds ?? []).length > 0) return true;
  return declarationAllowed && !!x.missingReceiptDeclaration && declarationHolds(x, x.missingReceiptDeclaration);
}

/** The base-currency sums of the expenses grouped by `key`, in the order the groups first appear. */
function sums(
  expenses: readonly JudgedExpense[],
  key: (x: JudgedExpense) => string,
): { kind: ExpenseKind; date: string; total: Decimal }[] {
  const groups = new Map<string, { kind: ExpenseKind; date: string; total: Decimal }>();
  for (const x of expenses) {
    const k = key(x);
    const g = groups.get(k);
    if (g) g.total = g.total.plus(x.amountInBaseCurrency);
    else groups.set(k, { kind: x.kind, date: x.date, total: new Decimal(x.amountInBaseCurrency) });
  }
  return [...groups.values()];
}

export const blocking = (findings: readonly PolicyFinding[]): PolicyFinding[] =>
  findings.filter((f) => f.onBreach === 'Block');

/**
 * The field errors of the blocking findings, keyed by the expense as other entry errors are (`expenses[i]`):
 * a per-item or receipt finding under its expense; a per-day finding under every expense of that kind and
 * day; a per-trip one under every expense of the kind.
 */
export function blockingErrors(
  expenses: readonly Pick<Expense, '_id' | 'kind' | 'date'>[],
  findings: readonly PolicyFinding[],
  currency: string,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const f of blocking(findings)) {
    const message = describe(f, currency);
    expenses.forEach((x, i) => {
      const hit = f.expenseId
        ? x._id === f.expenseId
        : x.kind === f.kind && (f.check === 'PerTrip' || x.date === f.date);
      if (hit) (errors[`expenses[${i}]`] ??= []).push(message);
    });
  }
  return errors;
}

const WHAT: Record<FindingCheck, string> = {
  PerItem: 'the cap per item',
  PerDay: 'the cap per day',
  PerTrip: 'the cap per trip',
  ReceiptMissing: 'the amount above which a receipt is required',
};

function describe(f: PolicyFinding, currency: string): string {
  const where = f.check === 'PerDay' ? ` on ${f.date}` : f.check === 'PerTrip' ? ' over the trip' : '';
  const tail = f.check === 'ReceiptMissing' ? ' and names no receipt' : '';
  return `breaches the expense policy rule '${f.rule}' (from ${f.effectiveFrom}): ${f.kind} ${f.amount} ${currency}${where} is ${f.amountOver} ${currency} above ${WHAT[f.check]}, ${f.limit} ${currency}${tail}`;
}
