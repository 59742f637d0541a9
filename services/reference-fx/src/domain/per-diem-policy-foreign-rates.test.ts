// The company's per-country rates in its per-diem policy (issue 34 §2, docs/decisions/0188): allowed only
// where the statutory rate is unknown on some day of the version; in the currency of a reported figure and,
// in the floor markets, at least it; who confirmed each and when, kept while it is sent unchanged.
// Figures from the research (packages/regulations/research): SI foreign rates "from 2021: HR, CZ, PL, SK
// 40 € each; 2026 amounts UNVERIFIED" (REGULATIONS.md); SK 401/2012: AL 33 € read in one source only,
// AT 45 € cross-checked (foreign/SK.md, Table 1).
import { contractAt, NO_POLICY, type PerDiemPolicy } from '@travel/contracts';
import { eventProblems } from '@travel/platform/src/messaging/event-schemas';
import { MAX_POLICY_FOREIGN_RATES, normalizePolicy, type PerDiemPolicyWrite } from './per-diem-policy';

type Rate = { countryCode: string; amount: number | string; currencyCode: string };
const version = (effectiveFrom: string, foreignRates: Rate[]) => ({ effectiveFrom, domesticBands: [], foreignRates });
const anna = { confirmedBy: 'emp_anna', now: '2026-02-01T09:00:00.000Z', current: NO_POLICY };
const check = (market: Parameters<typeof normalizePolicy>[0], body: PerDiemPolicyWrite, context = anna) =>
  normalizePolicy(market, body, context);

describe('company foreign rates where nothing is known (SI 2026)', () => {
  it('accepts any amount for a country without a 2026 rate, stored as decimal text with who and when', () => {
    const { policy, errors } = check('SI', {
      versions: [version('2026-01-01', [{ countryCode: 'AT', amount: 50, currencyCode: 'EUR' }])],
    });
    expect(errors).toEqual({});
    expect(policy.versions[0]!.foreignRates).toEqual([
      {
        countryCode: 'AT',
        amount: '50.00',
        currencyCode: 'EUR',
        confirmedBy: 'emp_anna',
        confirmedAt: '2026-02-01T09:00:00.000Z',
      },
    ]);
    // HR and SI: no floor; any currency where nothing is reported.
    expect(
      check('SI', { versions: [version('2026-01-01', [{ countryCode: 'US', amount: '0.5', currencyCode: 'USD' }])] })
        .errors,
    ).toEqual({});
  });

  it('refuses a country whose statutory rate is known on every day of the version, naming it', () => {
    // SI → HR: 40 € in force 2021–2025; a version of 2025 alone (the next starts 2026-01-01) needs no company rate.
    const { errors } = check('SI', {
      versions: [
        version('2025-01-01', [{ countryCode: 'HR', amount: 45, currencyCode: 'EUR' }]),
        version('2026-01-01', [{ countryCode: 'HR', amount: 45, currencyCode: 'EUR' }]),
      ],
    });
    expect(errors).toEqual({
      'versions[0].foreignRates[0].countryCode': [
        expect.stringMatching(/^the statutory rate is known: 40 EUR .* pays it/),
      ],
    });
    // A version from mid-2025 open-ended reaches 2026, where the rate is unknown: accepted.
    expect(
      check('SI', { versions: [version('2025-07-01', [{ countryCode: 'HR', amount: 45, currencyCode: 'EUR' }])] })
        .errors,
    ).toEqual({});
  });

  it('refuses the own country, a code the product does not know, a country listed twice, a bad amount', () => {
    const { errors } = check('SI', {
      versions: [
        version('2026-01-01', [
          { countryCode: 'SI', amount: 30, currencyCode: 'EUR' },
          { countryCode: 'ZZ', amount: 30, currencyCode: 'EUR' },
          { countryCode: 'AT', amount: 30, currencyCode: 'EUR' },
          { countryCode: 'AT', amount: 31, currencyCode: 'EUR' },
          { countryCode: 'DE', amount: 30.123, currencyCode: 'EUR' },
          { countryCode: 'IT', amount: -1, currencyCode: 'EUR' },
          { countryCode: 'FR', amount: 30, currencyCode: 'XXX' },
        ]),
      ],
    });
    expect(Object.keys(errors).sort()).toEqual([
      'versions[0].foreignRates[0].countryCode',
      'versions[0].foreignRates[1].countryCode',
      'versions[0].foreignRates[3].countryCode',
      'versions[0].foreignRates[4].amount',
      'versions[0].foreignRates[5].amount',
      'versions[0].foreignRates[6].currencyCode',
    ]);
    expect(errors['versions[0].foreignRates[0].countryCode']![0]).toMatch(/own country/);
    expect(errors['versions[0].foreignRates[3].countryCode']![0]).toMatch(/AT is listed twice/);
  });
});

describe('company foreign rates over a reported figure (SK: AL 33 € reported)', () => {
  const sk = (amount: number, currencyCode = 'EUR') =>
    check('SK', { versions: [version('2026-01-01', [{ countryCode: 'AL', amount, currencyCode }])] });

  it('confirms the reported figure, or pays more', () => {
    expect(sk(33).errors).toEqual({});
    expect(sk(33).policy.versions[0]!.foreignRates![0]).toMatchObject({ amount: '33.00', currencyCode: 'EUR' });
    expect(sk(40).errors).toEqual({});
  });

  it('refuses less than the reported figure (SK: the statutory per-diem is a floor), naming figure and source', () => {
    expect(sk(32.99).errors).toEqual({
      'versions[0].foreignRates[0].amount': [
        expect.stringMatching(
          /^below the figure reported for AL: 33 EUR \(Opatrenie MF SR č\. 401\/2012 Z\. z\., read in/,
        ),
      ],
    });
  });

  it('refuses another currency than the reported figure’s', () => {
    expect(sk(40, 'USD').errors).toEqual({
      'versions[0].foreignRates[0].currencyCode': [expect.stringMatching(/^must be EUR, the currency of the figure/)],
    });
  });

  it('refuses a country whose rate is statutory (SK → AT 45 €)', () => {
    const { errors } = check('SK', {
      versions: [version('2026-01-01', [{ countryCode: 'AT', amount: 50, currencyCode: 'EUR' }])],
    });
    expect(errors['versions[0].foreignRates[0].countryCode']).toEqual([
      expect.stringMatching(/^the statutory rate is known: 45 EUR/),
    ]);
  });
});

// PL → RS from 2022-11-29: 40 € (hotel 110 €) read only as "Serbia i Czarnogóra" (foreign/PL.md): reported.
describe('company foreign rates over a reported figure (PL: RS 40 € reported)', () => {
  const pl = (amount: number) =>
    check('PL', { versions: [version('2026-01-01', [{ countryCode: 'RS', amount, currencyCode: 'EUR' }])] });
  it('at least the figure (PL: the statutory dieta is a floor)', () => {
    expect(pl(40).errors).toEqual({});
    expect(Object.keys(pl(39.99).errors)).toEqual(['versions[0].foreignRates[0].amount']);
  });
});

// SI → LU 2021–2025: 55 € and 40 € (a conflict, foreign/SI.md); SI has no floor, only the currency binds.
describe('company foreign rates over a conflict (SI → LU, 2025)', () => {
  it('any amount in the figures’ currency; another currency is refused', () => {
    const si = (amount: number, currencyCode = 'EUR') =>
      check('SI', { versions: [version('2025-01-01', [{ countryCode: 'LU', amount, currencyCode }])] });
    expect(si(30).errors).toEqual({});
    expect(si(55).errors).toEqual({});
    expect(Object.keys(si(55, 'CHF').errors)).toEqual(['versions[0].foreignRates[0].currencyCode']);
  });
});

describe('who confirmed a rate, and when', () => {
  const stored: PerDiemPolicy = check('SI', {
    versions: [
      version('2026-01-01', [
        { countryCode: 'AT', amount: 50, currencyCode: 'EUR' },
        { countryCode: 'DE', amount: 55, currencyCode: 'EUR' },
      ]),
    ],
  }).policy;
  const bob = { confirmedBy: 'emp_bob', now: '2026-03-01T10:00:00.000Z', current: stored };

  it('a rate sent unchanged keeps them (a GET body PUT back is the same policy); a changed one is the writer’s, now', () => {
    const { policy, errors } = check(
      'SI',
      {
        versions: [
          version('2026-01-01', [
            { countryCode: 'AT', amount: '50.00', currencyCode: 'EUR' },
            { countryCode: 'DE', amount: 56, currencyCode: 'EUR' },
            { countryCode: 'IT', amount: 50, currencyCode: 'EUR' },
          ]),
        ],
      },
      bob,
    );
    expect(errors).toEqual({});
    expect(policy.versions[0]!.foreignRates).toEqual([
      expect.objectContaining({ countryCode: 'AT', confirmedBy: 'emp_anna', confirmedAt: '2026-02-01T09:00:00.000Z' }),
      expect.objectContaining({ countryCode: 'DE', amount: '56.00', confirmedBy: 'emp_bob', confirmedAt: bob.now }),
      expect.objectContaining({ countryCode: 'IT', confirmedBy: 'emp_bob', confirmedAt: bob.now }),
    ]);
    const echoed = check(
      'SI',
      {
        versions: [
          version('2026-01-01', [
            { countryCode: 'AT', amount: 50, currencyCode: 'EUR' },
            { countryCode: 'DE', amount: 55, currencyCode: 'EUR' },
          ]),
        ],
      },
      bob,
    );
    expect(echoed.policy).toEqual(stored);
  });

  it('a rate moved to another version is confirmed anew', () => {
    const moved = check(
      'SI',
      { versions: [version('2026-02-01', [{ countryCode: 'AT', amount: 50, currencyCode: 'EUR' }])] },
      bob,
    );
    expect(moved.policy.versions[0]!.foreignRates![0]).toMatchObject({ confirmedBy: 'emp_bob' });
  });
});

describe("company foreign rates: the size limit is the contract's (docs/decisions/0107)", () => {
  it(`at most ${MAX_POLICY_FOREIGN_RATES} per version`, () => {
    expect(contractAt('/components/schemas/PerDiemPolicyVersion/properties/foreignRates/maxItems')).toBe(
      MAX_POLICY_FOREIGN_RATES,
    );
    const many = Array.from({ length: MAX_POLICY_FOREIGN_RATES + 1 }, () => ({
      countryCode: 'AT',
      amount: 1,
      currencyCode: 'EUR',
    }));
    expect(check('SI', { versions: [version('2026-01-01', many)] }).errors).toEqual({
      'versions[0].foreignRates': [`must NOT have more than ${MAX_POLICY_FOREIGN_RATES} items`],
    });
  });
});

describe('the policy as its event carries it (contracts/events/internal)', () => {
  it('a policy with per-country rates is a valid reference-fx.per-diem-policy.updated', () => {
    const { policy } = check('SI', {
      versions: [version('2026-01-01', [{ countryCode: 'AT', amount: 50, currencyCode: 'EUR' }])],
    });
    const event = {
      id: '6f1c1a52-4b9e-4a7f-9d53-2f0f7f3b2a10',
      type: 'per-diem-policy.updated',
      tenantId: 'tenant-1',
      occurredAt: '2026-02-01T09:00:00.000Z',
      data: policy,
    };
    expect(eventProblems('reference-fx.per-diem-policy.updated', event)).toEqual([]);
  });
});
