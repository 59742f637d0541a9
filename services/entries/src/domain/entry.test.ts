import { decimalText, sumText } from './amounts';
import { entryFields, formatEntryNumber, isCalendarDate, isLocked, sameFields, type TravelEntry } from './entry';
import { toEntryWebhookDto } from './webhook';

const defaults = { employeeId: 'e1', baseCurrency: 'EUR' };

describe('entry fields', () => {
  it('defaults: advance 0 in the base currency dated on departure, Domestic, nothing else', () => {
    const { fields, errors } = entryFields({ departureDate: '2026-11-02', returnDate: '2026-11-03' }, defaults);
    expect(errors).toEqual({});
    expect(fields).toMatchObject({
      employeeId: 'e1',
      travelType: 'Domestic',
      advancePayment: '0.00',
      currencyCode: 'EUR',
      advancePaymentDate: '2026-11-02',
      manualAdvanceExchangeRate: null,
      destinationCountryCode: null,
      costCenterAllocations: [],
    });
  });

  it('checks the country code against ISO 3166-1, dates against the calendar, decimals against the currency', () => {
    const { errors } = entryFields(
      {
        departureDate: '2026-02-30',
        returnDate: '2026-03-02',
        destinationCountryCode: 'UK',
        advancePayment: 1.005,
        currencyCode: 'USD',
      },
      defaults,
    );
    expect(Object.keys(errors).sort()).toEqual(['advancePayment', 'departureDate', 'destinationCountryCode']);
    expect(entryFields({ departureDate: '2026-11-02', returnDate: '2026-11-01' }, defaults).errors).toHaveProperty(
      'returnDate',
    );
    expect(
      entryFields(
        { departureDate: '2026-11-02', returnDate: '2026-11-02', advancePayment: 1000, currencyCode: 'JPY' },
        defaults,
      ).fields.advancePayment,
    ).toBe('1000');
  });

  it('free text is trimmed and blank is null; equal bodies compare equal', () => {
    const a = entryFields(
      { departureDate: '2026-11-02', returnDate: '2026-11-02', destination: '  Graz ', report: '  ' },
      defaults,
    );
    expect(a.fields.destination).toBe('Graz');
    expect(a.fields.report).toBeNull();
    const b = entryFields({ departureDate: '2026-11-02', returnDate: '2026-11-02', destination: 'Graz' }, defaults);
    expect(
      entryFields({ departureDate: '2026-11-02', returnDate: '2026-11-02', destination: 'Gr\u0007az' }, defaults)
        .errors,
    ).toHaveProperty('destination');
    expect(
      entryFields({ departureDate: '2026-11-02', returnDate: '2026-11-02', report: 'Line one\nLine two' }, defaults)
        .errors,
    ).toEqual({});
    expect(sameFields(a.fields, b.fields)).toBe(true);
  });
});

describe('amounts', () => {
  it('reads JSON numbers into decimal text without binary rounding and sums exactly', () => {
    expect(decimalText(0.1, 2)).toBe('0.10');
    expect(decimalText(1e21, 2)).toBeUndefined();
    expect(sumText(['0.10', '0.20'], 2)).toBe('0.30');
  });
});

describe('entry summary and state', () => {
  it('entry numbers are <year>-<5 digits>; locked means closed to writes', () => {
    expect(formatEntryNumber(2026, 7)).toBe('2026-00007');
    expect(isLocked({ status: 0, isPaidOut: false })).toBe(false);
    expect(isLocked({ status: 2, isPaidOut: false })).toBe(false);
    expect(isLocked({ status: 1, isPaidOut: false })).toBe(true);
    expect(isLocked({ status: 0, isPaidOut: true })).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true);
  });

  it('the webhook summary carries exactly the TravelEntryWebhookDto fields', () => {
    const now = new Date('2026-11-01T10:00:00.000Z');
    const entry = {
      _id: 'x',
      tenantId: 't',
      ...entryFields(
        { departureDate: '2026-11-02', returnDate: '2026-11-02', destination: 'Secret place', description: 'Notes' },
        defaults,
      ).fields,
      entryNumber: '',
      isRequest: true,
      status: 0,
      phase: 1,
      isPaidOut: false,
      paidOutAt: null,
      baseCurrency: 'EUR',
      advancePaymentInBaseCurrency: '0.00',
      advancePaymentExchangeRateSource: null,
      expenses: [],
      attachments: [],
      createdAt: now,
      editedAt: now,
      deletedAt: null,
    } satisfies TravelEntry;
    const dto = toEntryWebhookDto(entry, 4);
    expect(Object.keys(dto).sort()).toEqual(
      [
        'id',
        'entryNumber',
        'employeeId',
        'departureDate',
        'returnDate',
        'status',
        'phase',
        'isRequest',
        'isLocked',
        'isPaidOut',
        'paidOutAt',
        'advancePayment',
        'currencyCode',
        'advancePaymentInBaseCurrency',
        'createdAt',
        'editedAt',
        'sequence', // issue 40 §3 (docs/decisions/0228)
      ].sort(),
    );
    expect(JSON.stringify(dto)).not.toContain('Secret place');
    expect(dto).toMatchObject({ entryNumber: '', isRequest: true, phase: 1, advancePayment: 0, sequence: 4 });
  });
});
