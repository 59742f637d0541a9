import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseCnb, parseEcb, parseHnb, parseNbp, providerOfFileName } from './fx-feeds';
import { FeedError, perUnit, type Publication } from './fx-publication';

// Parsers on recorded files in the providers' real formats (test/fixtures/README.md).
const fixtures = join(__dirname, '..', '..', 'test', 'fixtures');
const read = (...path: string[]) => readFileSync(join(fixtures, ...path), 'utf8');
const rateOf = (p: Publication, currency: string) => p.rates.find((r) => r.currency === currency);

describe('HNB exchange-rate list v3 (JSON, decimal commas, foreign per 1 EUR)', () => {
  it('reads one date: the middle rate of each currency, the list number', () => {
    const [p, ...rest] = parseHnb(read('daily', 'hnb-tecajn-eur-v3-2026-11-20.json'));
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ provider: 'HNB', date: '2026-11-20', reference: '224' });
    expect(p!.rates.map((r) => r.currency)).toEqual([
      'AUD',
      'CAD',
      'CZK',
      'DKK',
      'HUF',
      'JPY',
      'NOK',
      'SEK',
      'CHF',
      'GBP',
      'USD',
      'BAM',
      'PLN',
    ]);
    expect(rateOf(p!, 'USD')).toEqual({ currency: 'USD', rate: '1.159568', units: 1 });
    expect(rateOf(p!, 'HUF')).toEqual({ currency: 'HUF', rate: '386.184635', units: 1 });
    expect(rateOf(p!, 'BAM')!.rate).toBe('1.955830');
  });

  it('reads a date range into one publication per application date, oldest first', () => {
    const ps = parseHnb(read('feeds', 'hnb-tecajn-eur-v3-2026-10-26_2026-11-20.json'));
    expect(ps).toHaveLength(19); // 20 working days, no list applies on 2026-11-18 in the recording
    expect(ps[0]!.date).toBe('2026-10-26');
    expect(ps.at(-1)!.date).toBe('2026-11-20');
    expect(ps.map((p) => p.date)).not.toContain('2026-11-18');
    expect(ps.map((p) => p.date)).not.toContain('2026-10-31');
  });

  it('refuses a truncated download and a dot where HNB writes a comma', () => {
    expect(() => parseHnb(read('invalid', 'hnb-truncated.json'))).toThrow(FeedError);
    expect(() => parseHnb(read('invalid', 'hnb-dot-decimal.json'))).toThrow(/DKK.*not a decimal-comma number/);
    expect(() => parseHnb('[]')).toThrow(/non-empty/);
    const long = read('daily', 'hnb-tecajn-eur-v3-2026-11-20.json').replace('"1,159568"', '"1,1595680000000001"');
    expect(() => parseHnb(long)).toThrow(/USD.*too many digits/);
  });
});

describe('ECB euro reference rates (gesmes XML, foreign per 1 EUR)', () => {
  it('reads eurofxref-daily.xml', () => {
    const [p, ...rest] = parseEcb(read('daily', 'ecb-eurofxref-daily.xml'));
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ provider: 'ECB', date: '2026-11-20', reference: null });
    expect(p!.rates).toHaveLength(29);
    expect(rateOf(p!, 'USD')).toEqual({ currency: 'USD', rate: '1.1596', units: 1 });
    expect(rateOf(p!, 'JPY')!.rate).toBe('176.14');
    expect(rateOf(p!, 'CZK')!.rate).toBe('24.209');
  });

  it('reads a history file (newest first in the file) into dated publications, oldest first', () => {
    const ps = parseEcb(read('feeds', 'ecb-eurofxref-hist-2026-10-26_2026-11-20.xml'));
    expect(ps).toHaveLength(20);
    expect(ps.map((p) => p.date).slice(0, 6)).toEqual([
      '2026-10-26',
      '2026-10-27',
      '2026-10-28',
      '2026-10-29',
      '2026-10-30',
      '2026-11-02',
    ]);
  });

  it('reads double-quoted attributes too', () => {
    const xml = read('daily', 'ecb-eurofxref-daily.xml').replace(/'/g, '"');
    expect(rateOf(parseEcb(xml)[0]!, 'USD')!.rate).toBe('1.1596');
  });

  it('refuses a truncated file, a non-numeric rate and a day without USD (partial)', () => {
    expect(() => parseEcb(read('invalid', 'ecb-truncated.xml'))).toThrow(/truncated/);
    expect(() => parseEcb(read('invalid', 'ecb-bad-rate.xml'))).toThrow(/GBP/);
    expect(() => parseEcb(read('invalid', 'ecb-without-usd.xml'))).toThrow(/lacks USD \(partial feed\)/);
  });
});

describe('CNB denni_kurz.txt (header line, amount multiplier, CZK per amount)', () => {
  const p = parseCnb(read('feeds', 'cnb-denni_kurz-2026-11-20.txt'))[0]!;

  it('takes the date and list number from line 1', () => {
    expect(p).toMatchObject({ provider: 'CNB', date: '2026-11-20', reference: '225' });
    expect(p.rates).toHaveLength(30);
  });

  it('keeps the amount multiplier: 100 JPY, 100 HUF, 1000 IDR, 1 EUR', () => {
    expect(rateOf(p, 'JPY')).toEqual({ currency: 'JPY', rate: '13.744', units: 100 });
    expect(perUnit(rateOf(p, 'JPY')!).toString()).toBe('0.13744');
    expect(rateOf(p, 'HUF')).toEqual({ currency: 'HUF', rate: '6.269', units: 100 });
    expect(perUnit(rateOf(p, 'IDR')!).toString()).toBe('0.00124');
    expect(rateOf(p, 'EUR')).toEqual({ currency: 'EUR', rate: '24.209', units: 1 });
    expect(perUnit(rateOf(p, 'USD')!).toString()).toBe('20.878');
  });

  it('reads the quoted SDR like any rate (it is not an amount currency)', () => {
    expect(rateOf(p, 'XDR')!.units).toBe(1);
  });

  it('accepts CRLF line ends and a byte-order mark', () => {
    const text = '\uFEFF' + read('feeds', 'cnb-denni_kurz-2026-11-20.txt').replace(/\n/g, '\r\n');
    expect(parseCnb(text)[0]!.rates).toHaveLength(30);
  });

  it('refuses a short row, a missing header and a zero amount, whole', () => {
    expect(() => parseCnb(read('invalid', 'cnb-short-row.txt'))).toThrow(/line 13 has 4 fields/);
    expect(() => parseCnb(read('invalid', 'cnb-no-header.txt'))).toThrow(/line 1/);
    expect(() => parseCnb(read('invalid', 'cnb-zero-amount.txt'))).toThrow(/JPY.*amount "0"/);
  });
});

describe('NBP table A (JSON, PLN per 1 unit)', () => {
  it('reads one table', () => {
    const [p, ...rest] = parseNbp(read('daily', 'nbp-table-A-2026-11-20.json'));
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ provider: 'NBP', date: '2026-11-20', reference: '225/A/NBP/2026' });
    expect(p!.rates).toHaveLength(32);
    expect(rateOf(p!, 'USD')).toEqual({ currency: 'USD', rate: '3.6672', units: 1 });
    expect(rateOf(p!, 'EUR')!.rate).toBe('4.2524');
    // Small mids stay exact: no binary floating-point digits creep in.
    expect(rateOf(p!, 'IDR')!.rate).toBe('0.00021777');
    expect(rateOf(p!, 'HUF')!.rate).toBe('0.011011');
  });

  it('reads a range of tables; no table on 2026-11-11 (Independence Day)', () => {
    const ps = parseNbp(read('feeds', 'nbp-tables-A-2026-10-26_2026-11-20.json'));
    expect(ps).toHaveLength(19);
    expect(ps.map((p) => p.date)).not.toContain('2026-11-11');
  });

  it('refuses a table without USD and a mid written as text', () => {
    expect(() => parseNbp(read('invalid', 'nbp-without-usd.json'))).toThrow(/lacks USD/);
    expect(() => parseNbp(read('invalid', 'nbp-string-mid.json'))).toThrow(/HKD.*mid/);
  });
});

describe('recorded files', () => {
  it('every seed file is named for its provider and parses', () => {
    const files = readdirSync(join(fixtures, 'feeds'));
    expect(files.length).toBeGreaterThan(4);
    for (const name of files) {
      const provider = providerOfFileName(name);
      expect(provider).toBeDefined();
      const parse = { HNB: parseHnb, ECB: parseEcb, CNB: parseCnb, NBP: parseNbp }[provider!];
      expect(parse(read('feeds', name)).length).toBeGreaterThan(0);
    }
  });

  it('CNB publishes nothing on its holidays 2026-10-28 and 2026-11-17', () => {
    const files = readdirSync(join(fixtures, 'feeds')).filter((n) => n.startsWith('cnb-'));
    expect(files).toHaveLength(18);
    expect(files).not.toContain('cnb-denni_kurz-2026-10-28.txt');
    expect(files).not.toContain('cnb-denni_kurz-2026-11-17.txt');
  });
});

describe('CNB yearly history (rok.txt: "Datum|1 AUD|…" header, one row per date, no list numbers)', () => {
  // Real lines: test/fixtures/history/cnb-rok-2019.txt (cnb-rates 0.2.0, data/all.csv.xz lines 6597, 6646-6650).
  const year = read('history', 'cnb-rok-2019.txt');

  it('reads every row under its header: CZK per the column’s amount, no list number', () => {
    const publications = parseCnb(year);
    expect(publications.map((p) => p.date)).toEqual([
      '2019-03-11',
      '2019-03-12',
      '2019-03-13',
      '2019-03-14',
      '2019-03-15',
    ]);
    const p = publications.at(-1)!;
    expect(p).toMatchObject({ provider: 'CNB', date: '2019-03-15', reference: null });
    expect(p.rates).toHaveLength(33);
    expect(rateOf(p, 'USD')).toEqual({ currency: 'USD', rate: '22.694', units: 1 });
    expect(rateOf(p, 'JPY')).toEqual({ currency: 'JPY', rate: '20.350', units: 100 });
    expect(rateOf(p, 'IDR')).toEqual({ currency: 'IDR', rate: '1.592', units: 1000 });
  });

  it('takes a new header line where the currency set changes within the year', () => {
    const text =
      'Datum|1 EUR|1 USD\n02.01.2019|25,750|22,550\nDatum|100 JPY|1 EUR|1 USD\n03.01.2019|20,800|25,735|22,601\n';
    const [first, second] = parseCnb(text);
    expect(first!.rates.map((r) => r.currency)).toEqual(['EUR', 'USD']);
    expect(rateOf(second!, 'JPY')).toEqual({ currency: 'JPY', rate: '20.800', units: 100 });
  });

  it('lists before 1999 have no EUR and are whole; from 1999 a list without EUR is partial', () => {
    expect(parseCnb('Datum|1 USD|1 XEU\n02.01.1998|34,438|38,035\n')[0]!.rates).toHaveLength(2);
    expect(() => parseCnb('Datum|1 USD\n04.01.1999|34,550\n')).toThrow(/1999-01-04 lacks EUR \(partial feed\)/);
  });

  it('refuses a row with a rate too few, a bad column and a row before any header, whole', () => {
    expect(() => parseCnb('Datum|1 EUR|1 USD\n02.01.2019|25,750\n')).toThrow(/line 2 has 1 rates for 2 columns/);
    expect(() => parseCnb('Datum|EUR|1 USD\n02.01.2019|25,750|22,550\n')).toThrow(/column "EUR"/);
    expect(() => parseCnb('Datum|1 EUR|1 USD\n02.01.2019|25.750|22,550\n')).toThrow(/decimal-comma/);
  });
});
