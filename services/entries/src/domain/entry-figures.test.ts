// The one place an entry's figures are computed (docs/decisions/0109): amount due = expenses + per-diems −
// advance, in the base currency; an unknown per-diem amount makes the per-diem total and the amount due
// unknown (null, never 0), and says why.
import { entryFigures, figuresIn } from './entry-figures';

const expenses = (...amounts: string[]) => amounts.map((amountInBaseCurrency) => ({ amountInBaseCurrency }));
const perDiems = (...amounts: (string | null)[]) => amounts.map((amountInBaseCurrency) => ({ amountInBaseCurrency }));

describe('entry figures', () => {
  it('expenses + per-diems − advance, in the base currency’s digits (HR: 50.40 € train, a 30 € day, 20 € advance)', () => {
    expect(
      entryFigures({
        baseCurrency: 'EUR',
        expenses: expenses('50.40'),
        perDiems: perDiems('30.00'),
        advancePaymentInBaseCurrency: '20.00',
      }),
    ).toEqual({
      expenseTotal: '50.40',
      perDiemTotal: '30.00',
      total: '80.40',
      amountDue: '60.40',
      payoutBlockedReason: null,
    });
  });

  it('an advance above the total is owed back: a negative amount due', () => {
    const f = entryFigures({
      baseCurrency: 'CZK',
      expenses: expenses('100.00'),
      perDiems: [],
      advancePaymentInBaseCurrency: '350.00',
    });
    expect(f).toMatchObject({ expenseTotal: '100.00', perDiemTotal: '0.00', total: '100.00', amountDue: '-250.00' });
  });

  it('nothing at all is 0.00 due; missing collections count as empty', () => {
    expect(entryFigures({ baseCurrency: 'PLN' })).toEqual({
      expenseTotal: '0.00',
      perDiemTotal: '0.00',
      total: '0.00',
      amountDue: '0.00',
      payoutBlockedReason: null,
    });
  });

  it('an unknown per-diem amount (a rate not verified) makes the per-diem total and the amount due unknown, never 0', () => {
    // CZ: a 155 Kč domestic row and an Austrian row whose foreign rate is not verified.
    const f = entryFigures({
      baseCurrency: 'CZK',
      expenses: expenses('500.00'),
      perDiems: perDiems('155.00', null),
      advancePaymentInBaseCurrency: '0.00',
    });
    expect(f).toMatchObject({ expenseTotal: '500.00', perDiemTotal: null, total: null, amountDue: null });
    expect(f.payoutBlockedReason).toContain('perDiems[1]');
    expect(f.payoutBlockedReason).toMatch(/cannot be paid out/);
    // Even with an advance that would make a known total exactly 0: still unknown.
    expect(
      entryFigures({ baseCurrency: 'EUR', perDiems: perDiems(null), advancePaymentInBaseCurrency: '0' }).amountDue,
    ).toBeNull();
  });

  it('sums exactly in decimals and rounds nothing away (0.10 + 0.20)', () => {
    expect(figuresIn({ expenses: expenses('0.10', '0.20'), perDiems: perDiems('0.30') }, 2)).toMatchObject({
      expenseTotal: '0.30',
      total: '0.60',
      amountDue: '0.60',
    });
  });
});
