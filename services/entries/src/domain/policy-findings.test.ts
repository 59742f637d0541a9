import { normalizeExpensePolicy, rulesFor, type ExpensePolicyRuleInput } from './expense-policy';
import { blockingErrors, policyFindings, type JudgedExpense } from './policy-findings';
import { declarationDigest } from './receipt-declaration';

const rule = (r: Partial<ExpensePolicyRuleInput> & Pick<ExpensePolicyRuleInput, 'name' | 'kind'>) =>
  ({ onBreach: 'Flag', ...r }) as ExpensePolicyRuleInput;

const policyOf = (versions: { effectiveFrom: string; rules: ExpensePolicyRuleInput[] }[]) => {
  const { policy, errors } = normalizeExpensePolicy({ versions }, 2);
  expect(errors).toEqual({});
  return policy;
};

const expense = (id: string, kind: JudgedExpense['kind'], date: string, base: string, extra = {}): JudgedExpense => ({
  _id: id,
  kind,
  date,
  amount: base,
  currencyCode: 'EUR',
  amountInBaseCurrency: base,
  ...extra,
});

const scope = { departmentId: null, costCenterIds: [] };

describe('the expense policy evaluator', () => {
  const policy = policyOf([
    {
      effectiveFrom: '2026-01-01',
      rules: [
        rule({ name: 'Meal cap', kind: 'Meals', maxPerItem: 40, maxPerDay: 60, onBreach: 'Flag' }),
        rule({ name: 'Hotel', kind: 'Accommodation', maxPerTrip: 300, receiptRequiredAbove: 50, onBreach: 'Block' }),
      ],
    },
  ]);

  it('finds per item, per day and per trip breaches, the amount over worked out by hand', () => {
    const entry = {
      departureDate: '2026-11-02',
      expenses: [
        expense('m1', 'Meals', '2026-11-02', '45.50'), // 45.50 − 40 = 5.50 over the item cap
        expense('m2', 'Meals', '2026-11-02', '30.00'), // day: 45.50 + 30.00 = 75.50 − 60 = 15.50 over
        expense('h1', 'Accommodation', '2026-11-02', '180.00', { receiptAttachmentIds: ['a'] }),
        expense('h2', 'Accommodation', '2026-11-03', '150.00', { receiptAttachmentIds: ['b'] }), // trip: 330 − 300 = 30
      ],
    };
    const found = policyFindings(entry, policy, scope, 2);
    expect(found.map((f) => [f.check, f.expenseId, f.date, f.amount, f.limit, f.amountOver, f.onBreach])).toEqual([
      ['PerItem', 'm1', '2026-11-02', '45.50', '40.00', '5.50', 'Flag'],
      ['PerDay', null, '2026-11-02', '75.50', '60.00', '15.50', 'Flag'],
      ['PerTrip', null, null, '330.00', '300.00', '30.00', 'Block'],
    ]);
    // The per-trip block is keyed under every accommodation expense: expenses[2] and expenses[3].
    expect(Object.keys(blockingErrors(entry.expenses as never, found, 'EUR'))).toEqual(['expenses[2]', 'expenses[3]']);
  });

  it('an amount equal to the cap is no breach; before the first version nothing is judged', () => {
    const entry = { departureDate: '2025-12-30', expenses: [expense('m', 'Meals', '2025-12-31', '99.00')] };
    expect(policyFindings(entry, policy, scope, 2)).toEqual([]);
    const atCap = { departureDate: '2026-02-01', expenses: [expense('m', 'Meals', '2026-02-01', '40.00')] };
    expect(policyFindings(atCap, policy, scope, 2)).toEqual([]);
  });

  it('a receipt is required above the threshold; a declaration counts only where the rule allows it', () => {
    const x = expense('h', 'Accommodation', '2026-11-02', '80.00');
    const unsigned = { reason: 'lost', declaredByEmployeeId: 'e', apiKeyId: 'k', declaredAt: new Date('2026-11-05') };
    const declared = { ...x, missingReceiptDeclaration: { ...unsigned, digest: declarationDigest(x, unsigned) } };
    const missing = policyFindings({ departureDate: '2026-11-02', expenses: [declared] }, policy, scope, 2);
    // 80.00 − 50.00 = 30.00 above the threshold; the Hotel rule takes no declaration.
    expect(missing.map((f) => [f.check, f.amountOver, f.onBreach])).toEqual([['ReceiptMissing', '30.00', 'Block']]);
    const lenient = policyOf([
      { effectiveFrom: '2026-01-01', rules: [rule({ name: 'H', kind: 'Accommodation', receiptRequiredAbove: 50, missingReceiptDeclarationAllowed: true })] },
    ]);
    expect(policyFindings({ departureDate: '2026-11-02', expenses: [declared] }, lenient, scope, 2)).toEqual([]);
    // The amount changed after the declaration: it no longer holds.
    const changed = { ...declared, amount: '81.00', amountInBaseCurrency: '81.00' };
    expect(policyFindings({ departureDate: '2026-11-02', expenses: [changed] }, lenient, scope, 2)).toHaveLength(1);
  });

  it('the most specific matching rules apply', () => {
    const p = policyOf([
      {
        effectiveFrom: '2026-01-01',
        rules: [
          rule({ name: 'all', kind: 'Meals', maxPerItem: 20 }),
          rule({ name: 'sales', kind: 'Meals', departmentId: 'd1', maxPerItem: 50 }),
        ],
      },
    ]);
    expect(rulesFor(p.versions[0], 'Meals', { departmentId: 'd1', costCenterIds: [] }).map((r) => r.name)).toEqual(['sales']);
    expect(rulesFor(p.versions[0], 'Meals', { departmentId: 'd2', costCenterIds: [] }).map((r) => r.name)).toEqual(['all']);
  });

  it('refuses two versions on one date, negative amounts, unknown kinds and duplicate scopes, keyed by field', () => {
    const { errors } = normalizeExpensePolicy(
      {
        versions: [
          { effectiveFrom: '2026-01-01', rules: [rule({ name: 'a', kind: 'Meals', maxPerItem: -1 })] },
          {
            effectiveFrom: '2026-01-01',
            rules: [rule({ name: 'b', kind: 'Snacks' as never, maxPerDay: 1 }), rule({ name: 'c', kind: 'Toll' })],
          },
        ],
      },
      2,
    );
    expect(Object.keys(errors).sort()).toEqual([
      'versions[0].rules[0].maxPerItem',
      'versions[1].effectiveFrom',
      'versions[1].rules[0].kind',
      'versions[1].rules[1]',
    ]);
  });
});
