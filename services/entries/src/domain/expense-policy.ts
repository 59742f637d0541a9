// The company's expense policy (issue 39 §1, docs/decisions/0203): versions from an effective date, each a
// list of rules per expense kind, optionally narrowed to a department and/or a cost center. Pure: the app
// checks the departments and cost centers named against the company, and stores what this returns.
import type { FieldErrors } from '@travel/platform';
import { isCalendarDate } from '@travel/platform/src/calendar-date';
import { optionalText } from '@travel/text-rules';
import { checkRange, decimalText } from './amounts';
import { EXPENSE_KINDS, type ExpenseKind } from './expense';
import { AMOUNT_RANGE } from './limits';

export type OnBreach = 'Block' | 'Flag';

export interface ExpensePolicyRule {
  /** The company's name of the rule, unique within its version: findings name it. */
  name: string;
  kind: ExpenseKind;
  departmentId: string | null;
  costCenterId: string | null;
  /** Caps in the base currency (decimal text in its minor digits), null where the rule sets none. */
  maxPerItem: string | null;
  maxPerDay: string | null;
  maxPerTrip: string | null;
  /** An expense above this amount (base currency) needs a receipt attachment; null: no receipt rule. */
  receiptRequiredAbove: string | null;
  /** Whether the employee's missing-receipt declaration satisfies the receipt rule (issue 39 §4). */
  missingReceiptDeclarationAllowed: boolean;
  onBreach: OnBreach;
}

export interface ExpensePolicyVersion {
  effectiveFrom: string;
  rules: ExpensePolicyRule[];
}

/** A company without a policy has no versions: nothing is capped, no finding is ever made. */
export interface ExpensePolicy {
  versions: ExpensePolicyVersion[];
}

/** A rule as the contract admits it (amounts as JSON numbers). */
export interface ExpensePolicyRuleInput {
  name: string;
  kind: ExpenseKind;
  departmentId?: string | null;
  costCenterId?: string | null;
  maxPerItem?: number | null;
  maxPerDay?: number | null;
  maxPerTrip?: number | null;
  receiptRequiredAbove?: number | null;
  missingReceiptDeclarationAllowed?: boolean;
  onBreach: OnBreach;
}

export interface ExpensePolicyInput {
  versions: { effectiveFrom: string; rules: ExpensePolicyRuleInput[] }[];
}

export const MAX_POLICY_VERSIONS = 50;
export const MAX_RULES_PER_VERSION = 100;
const RULE_NAME_MAX = 100;
const CAPS = ['maxPerItem', 'maxPerDay', 'maxPerTrip', 'receiptRequiredAbove'] as const;

/**
 * Normalizes and checks a PUT body: versions sorted by date (two on one date: 400), per rule a known kind,
 * a name unique in its version, caps ≥ 0 with at most the base currency's minor digits, and no two rules
 * with the same kind, department and cost center in one version (which of them would apply?). Errors are
 * keyed by the field as sent (`versions[0].rules[2].maxPerDay`).
 */
export function normalizeExpensePolicy(
  input: ExpensePolicyInput,
  places: number,
): { policy: ExpensePolicy; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const versions = input.versions ?? [];
  if (versions.length > MAX_POLICY_VERSIONS) add('versions', `must have at most ${MAX_POLICY_VERSIONS} versions`);
  const seenDates = new Map<string, number>();
  const out: ExpensePolicyVersion[] = versions.map((v, vi) => {
    const at = `versions[${vi}]`;
    if (!isCalendarDate(v.effectiveFrom)) add(`${at}.effectiveFrom`, 'must be a calendar date (yyyy-MM-dd)');
    const other = seenDates.get(v.effectiveFrom);
    if (other !== undefined) add(`${at}.effectiveFrom`, `versions[${other}] already starts on ${v.effectiveFrom}`);
    else seenDates.set(v.effectiveFrom, vi);
    const rules = v.rules ?? [];
    if (rules.length > MAX_RULES_PER_VERSION) add(`${at}.rules`, `must have at most ${MAX_RULES_PER_VERSION} rules`);
    const names = new Map<string, number>();
    const scopes = new Map<string, number>();
    return {
      effectiveFrom: v.effectiveFrom,
      rules: rules.map((r, ri) => {
        const rat = `${at}.rules[${ri}]`;
        const name = optionalText(r.name, false, RULE_NAME_MAX);
        if (name.problem) add(`${rat}.name`, name.problem);
        else if (!name.value) add(`${rat}.name`, 'is required');
        const sameName = names.get(name.value ?? '');
        if (name.value && sameName !== undefined) add(`${rat}.name`, `rules[${sameName}] has the same name`);
        else if (name.value) names.set(name.value, ri);
        if (!(EXPENSE_KINDS as readonly string[]).includes(r.kind))
          add(`${rat}.kind`, `must be one of ${EXPENSE_KINDS.join(', ')}`);
        const departmentId = r.departmentId?.toLowerCase() ?? null;
        const costCenterId = r.costCenterId?.toLowerCase() ?? null;
        const scope = `${r.kind}|${departmentId}|${costCenterId}`;
        const sameScope = scopes.get(scope);
        if (sameScope !== undefined)
          add(rat, `rules[${sameScope}] already sets the ${r.kind} rule for this department and cost center`);
        else scopes.set(scope, ri);
        const amounts = Object.fromEntries(
          CAPS.map((field) => {
            const value = r[field];
            if (value === undefined || value === null) return [field, null];
            const text = decimalText(value, places);
            if (text === undefined) add(`${rat}.${field}`, `must have at most ${places} decimals`);
            else if (text.startsWith('-')) add(`${rat}.${field}`, 'must not be negative');
            else checkRange(add, `${rat}.${field}`, text, AMOUNT_RANGE);
            return [field, text ?? null];
          }),
        ) as Record<(typeof CAPS)[number], string | null>;
        if (CAPS.every((field) => r[field] === undefined || r[field] === null))
          add(rat, 'must set at least one of maxPerItem, maxPerDay, maxPerTrip, receiptRequiredAbove');
        if (r.onBreach !== 'Block' && r.onBreach !== 'Flag') add(`${rat}.onBreach`, 'must be Block or Flag');
        return {
          name: name.value ?? '',
          kind: r.kind,
          departmentId,
          costCenterId,
          ...amounts,
          missingReceiptDeclarationAllowed: r.missingReceiptDeclarationAllowed ?? false,
          onBreach: r.onBreach,
        };
      }),
    };
  });
  out.sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0));
  return { policy: { versions: out }, errors };
}

/** True when a PUT would store exactly what is stored (the no-op PUT: same editedAt, nothing written). */
export const samePolicy = (a: ExpensePolicy, b: ExpensePolicy): boolean =>
  JSON.stringify(a.versions) === JSON.stringify(b.versions);

/** The version in force on `date`: the latest starting on or before it; none before the first. */
export function versionOn(policy: ExpensePolicy, date: string): ExpensePolicyVersion | undefined {
  let found: ExpensePolicyVersion | undefined;
  for (const v of policy.versions) if (v.effectiveFrom <= date) found = v;
  return found;
}

/** Every department and cost center the policy names (the app checks them against the company). */
export function namedOrgUnits(policy: ExpensePolicy): { departmentIds: string[]; costCenterIds: string[] } {
  const rules = policy.versions.flatMap((v) => v.rules);
  return {
    departmentIds: [...new Set(rules.flatMap((r) => (r.departmentId ? [r.departmentId] : [])))],
    costCenterIds: [...new Set(rules.flatMap((r) => (r.costCenterId ? [r.costCenterId] : [])))],
  };
}

/** Who the entry is, as a rule's narrowing sees it: the employee's department, the cost centers charged. */
export interface RuleScope {
  departmentId: string | null;
  costCenterIds: readonly string[];
}

/**
 * The rules of `version` that judge an expense of `kind` (docs/decisions/0203): of the rules of that kind
 * whose department and cost center (where set) match the entry, the most specific ones — a rule narrowed
 * to both beats one narrowed to either, which beats the company-wide rule. Rules equally specific (one for
 * the department, one for a cost center) all apply: each breach is a finding of its own.
 */
export function rulesFor(
  version: ExpensePolicyVersion | undefined,
  kind: ExpenseKind,
  scope: RuleScope,
): ExpensePolicyRule[] {
  if (!version) return [];
  const matching = version.rules.filter(
    (r) =>
      r.kind === kind &&
      (r.departmentId === null || r.departmentId === scope.departmentId) &&
      (r.costCenterId === null || scope.costCenterIds.includes(r.costCenterId)),
  );
  const specificity = (r: ExpensePolicyRule) => (r.departmentId ? 1 : 0) + (r.costCenterId ? 1 : 0);
  const best = Math.max(-1, ...matching.map(specificity));
  return matching.filter((r) => specificity(r) === best);
}

/** Whether any rule narrows to a department (only then is the employee's department asked for). */
export const namesDepartments = (policy: ExpensePolicy): boolean =>
  policy.versions.some((v) => v.rules.some((r) => r.departmentId !== null));
