// The company per-diem policy's checks against the statutory figures (issue 22 §2): the floor where the
// law makes the domestic per-diem a minimum (CZ, SK, PL; figures from REGULATIONS.md), the CZ public-sector
// maximum, and the CZ foreign base rate of 75-100 % of the decree rate (§170(2) zákoník práce).
import { contractAt, NO_POLICY } from '@travel/contracts';
import {
  MAX_POLICY_BANDS,
  MAX_POLICY_VERSIONS,
  normalizePolicy,
  policyBandIds,
  type PerDiemPolicyWrite,
} from './per-diem-policy';

const version = (effectiveFrom: string, bands: Record<string, number>, foreignBaseRatePercent?: number | null) => ({
  effectiveFrom,
  domesticBands: Object.entries(bands).map(([band, amount]) => ({ band, amount })),
  ...(foreignBaseRatePercent === undefined ? {} : { foreignBaseRatePercent }),
});
const check = (market: Parameters<typeof normalizePolicy>[0], body: PerDiemPolicyWrite) =>
  normalizePolicy(market, body, { confirmedBy: 'emp_writer', now: '2026-03-01T09:00:00.000Z', current: NO_POLICY });

describe('per-diem policy: CZ (domestic decree figures are a floor)', () => {
  it('accepts amounts above the 2026 minimum (155 / 236 / 370 Kč) and stores them as decimal text, sorted', () => {
    const { policy, errors } = check('CZ', {
      versions: [
        version('2026-07-01', { '5-12h': 210 }),
        version('2026-01-01', { '5-12h': 200, '>12-18h': 300, '>18h': 450.5 }),
      ],
    });
    expect(errors).toEqual({});
    expect(policy).toEqual({
      sector: 'Private',
      versions: [
        {
          effectiveFrom: '2026-01-01',
          domesticBands: [
            { band: '5-12h', amount: '200.00' },
            { band: '>12-18h', amount: '300.00' },
            { band: '>18h', amount: '450.50' },
          ],
          foreignBaseRatePercent: null,
          foreignRates: [],
        },
        {
          effectiveFrom: '2026-07-01',
          domesticBands: [{ band: '5-12h', amount: '210.00' }],
          foreignBaseRatePercent: null,
          foreignRates: [],
        },
      ],
    });
  });

  it('refuses an amount below the minimum, naming the minimum and its decree', () => {
    const { errors } = check('CZ', { versions: [version('2026-01-01', { '5-12h': 150 })] });
    expect(errors['versions[0].domesticBands[0].amount']).toEqual([
      expect.stringMatching(
        /^below the statutory minimum: the statutory 5-12h amount of 155 CZK in force from 2026-01-01 \(Vyhláška č\. 573\/2025 Sb\./,
      ),
    ]);
  });

  it('checks a version against every decree in force while it applies (2025: 148 Kč, then 2026: 155 Kč)', () => {
    const open = check('CZ', { versions: [version('2025-06-01', { '5-12h': 150 })] });
    expect(open.errors['versions[0].domesticBands[0].amount']).toEqual([
      expect.stringContaining('155 CZK in force from 2026-01-01'),
    ]);
    // A second version from 2026 ends the first one's span on 2025-12-31: 150 ≥ 148 then.
    const closed = check('CZ', {
      versions: [version('2025-06-01', { '5-12h': 150 }), version('2026-01-01', { '5-12h': 160 })],
    });
    expect(closed.errors).toEqual({});
  });

  it('foreign base rate: 75 % of the decree rate accepted, 74 % refused, above 100 % refused', () => {
    expect(check('CZ', { versions: [version('2026-01-01', {}, 75)] })).toMatchObject({
      errors: {},
      policy: { versions: [{ foreignBaseRatePercent: '75.00' }] },
    });
    expect(check('CZ', { versions: [version('2026-01-01', {}, 100)] }).errors).toEqual({});
    expect(check('CZ', { versions: [version('2026-01-01', {}, 74)] }).errors).toEqual({
      'versions[0].foreignBaseRatePercent': [
        'below the statutory minimum: a foreign base rate agreed before the trip is at least 75 % of the decree rate (§170(2) zákoník práce)',
      ],
    });
    expect(check('CZ', { versions: [version('2026-01-01', {}, 74.99)] }).errors).toHaveProperty([
      'versions[0].foreignBaseRatePercent',
    ]);
    expect(check('CZ', { versions: [version('2026-01-01', {}, 100.5)] }).errors).toHaveProperty([
      'versions[0].foreignBaseRatePercent',
    ]);
  });

  it('public sector: the decree ranges are the ceiling (2026: 5-12 h 155–185 Kč) and abroad the decree rate', () => {
    expect(check('CZ', { sector: 'Public', versions: [version('2026-01-01', { '5-12h': 185 }, 100)] }).errors).toEqual(
      {},
    );
    expect(check('CZ', { sector: 'Public', versions: [version('2026-01-01', { '5-12h': 186 })] }).errors).toEqual({
      'versions[0].domesticBands[0].amount': [
        'above the public-sector maximum: 185 CZK for 5-12h in force from 2026-01-01 (Vyhláška č. 573/2025 Sb.; Zákon č. 262/2006 Sb., zákoník práce)',
      ],
    });
    expect(check('CZ', { sector: 'Public', versions: [version('2026-01-01', {}, 75)] }).errors).toEqual({
      'versions[0].foreignBaseRatePercent': ['the public sector pays the decree rate abroad: 100 or null'],
    });
    // The private sector has no ceiling.
    expect(check('CZ', { versions: [version('2026-01-01', { '5-12h': 1000 })] }).errors).toEqual({});
  });
});

describe('per-diem policy: SK and PL (floors)', () => {
  it('SK: 9.30 € (5-12 h from 2025-12-01) is the floor; a version from 2025-05 must not stay under it', () => {
    expect(
      check('SK', { versions: [version('2025-12-01', { '5-12h': 12, '>12-18h': 16, '>18h': 25 })] }).errors,
    ).toEqual({});
    const low = check('SK', { versions: [version('2025-12-01', { '5-12h': 9.2 })] });
    expect(low.errors['versions[0].domesticBands[0].amount']).toEqual([
      expect.stringMatching(
        /^below the statutory minimum: the statutory 5-12h amount of 9\.30 EUR in force from 2025-12-01/,
      ),
    ]);
    // 9.00 ≥ 8.80 (from 2025-04-01), but the version runs on into the 9.30 of 2025-12-01.
    expect(check('SK', { versions: [version('2025-05-01', { '5-12h': 9 })] }).errors).toHaveProperty([
      'versions[0].domesticBands[0].amount',
    ]);
  });

  it('PL: the dieta 45 zł and its bands are the floor; every band the engine prices can be named', () => {
    expect(policyBandIds('PL')).toEqual(['<8h', '8-12h', '>12h', 'started<=8h', 'started>8h', 'FullDay']);
    expect(check('PL', { versions: [version('2026-01-01', { '8-12h': 30, '>12h': 60, FullDay: 60 })] }).errors).toEqual(
      {},
    );
    expect(check('PL', { versions: [version('2026-01-01', { '8-12h': 20, FullDay: 44.99 })] }).errors).toEqual({
      'versions[0].domesticBands[0].amount': [
        expect.stringContaining('below the statutory minimum: the statutory 8-12h amount of 22.50 PLN'),
      ],
      'versions[0].domesticBands[1].amount': [
        expect.stringContaining('below the statutory minimum: the statutory FullDay amount of 45.00 PLN'),
      ],
    });
  });
});

describe('per-diem policy: HR and SI (tax-free caps, not floors)', () => {
  it('HR: above the 30 € cap is accepted (the excess is taxable); below it too: the research sets no floor', () => {
    expect(check('HR', { versions: [version('2026-01-01', { '>12h': 40, '8-12h': 20 })] }).errors).toEqual({});
    expect(check('HR', { versions: [version('2026-01-01', { '>12h': 25 })] }).errors).toEqual({});
  });

  it('SI: above and below 27.81 € are accepted; a negative amount or a third decimal is refused', () => {
    expect(check('SI', { versions: [version('2026-01-01', { '>12-24h': 30, '>8-12h': 10 })] }).errors).toEqual({});
    // The 6–8 h band has no statutory amount from 2023 (two sources disagree): a company may still pay one.
    expect(check('SI', { versions: [version('2026-01-01', { '>6-8h': 9 })] }).errors).toEqual({});
    expect(check('SI', { versions: [version('2026-01-01', { '>12-24h': -1, '>8-12h': 10.005 })] }).errors).toEqual({
      'versions[0].domesticBands[0].amount': ['must be >= 0'],
      'versions[0].domesticBands[1].amount': ['must have at most 2 decimal places'],
    });
  });

  it.each(['HR', 'SI', 'SK', 'PL'] as const)('%s: no foreign base-rate percentage and no public sector', (market) => {
    const { errors } = check(market, { sector: 'Public', versions: [version('2026-01-01', {}, 80)] });
    expect(Object.keys(errors).sort()).toEqual(['sector', 'versions[0].foreignBaseRatePercent']);
  });
});

describe('per-diem policy: shape', () => {
  it('refuses an unknown band (listing the market bands), a band twice, two versions on one date, a bad date', () => {
    const { errors } = check('CZ', {
      versions: [
        {
          effectiveFrom: '2026-01-01',
          domesticBands: [
            { band: '>12h', amount: 300 },
            { band: '>18h', amount: 400 },
            { band: '>18h', amount: 410 },
          ],
        },
        { effectiveFrom: '2026-01-01', domesticBands: [] },
        { effectiveFrom: '2026-02-30', domesticBands: [] },
      ],
    });
    expect(errors).toEqual({
      'versions[0].domesticBands[0].band': ['must be a domestic band of CZ: 5-12h, >12-18h, >18h'],
      'versions[0].domesticBands[2].band': ['>18h is listed twice'],
      'versions[1].effectiveFrom': ['another version starts on 2026-01-01 too'],
      'versions[2].effectiveFrom': ['must be a calendar date (yyyy-MM-dd)'],
    });
  });

  it('an empty policy is valid: every row pays the statutory amount', () => {
    expect(check('HR', { versions: [] })).toEqual({ policy: { sector: 'Private', versions: [] }, errors: {} });
  });
});

describe("per-diem policy: size limits in the code are the contract's (docs/decisions/0107)", () => {
  it('at most 50 versions and 20 bands per version', () => {
    expect(contractAt('/components/schemas/PerDiemPolicy/properties/versions/maxItems')).toBe(MAX_POLICY_VERSIONS);
    expect(contractAt('/components/schemas/PerDiemPolicyVersion/properties/domesticBands/maxItems')).toBe(
      MAX_POLICY_BANDS,
    );
    const many = Array.from({ length: 51 }, (_, i) => version(`2026-01-${String((i % 28) + 1).padStart(2, '0')}`, {}));
    expect(check('CZ', { versions: many }).errors).toEqual({ versions: ['must NOT have more than 50 items'] });
    const bands = Array.from({ length: 21 }, () => ({ band: '>18h', amount: 400 }));
    expect(check('CZ', { versions: [{ effectiveFrom: '2026-01-01', domesticBands: bands }] }).errors).toEqual({
      'versions[0].domesticBands': ['must NOT have more than 20 items'],
    });
  });
});
