import { parseWireDecimal } from '@travel/money';
import type { FxProvider } from './fx-providers';
import { checkPublications, FeedError, type Publication, type QuotedRate } from './fx-publication';

// One parser per provider, each for its real public format (REGULATIONS.md "FX feeds"). A parser
// returns every publication of the feed (a history feed has many dates) or throws FeedError: nothing
// of a bad feed is kept. Pure: text in, publications out.

const COMMA_DECIMAL = /^\d+,\d+$|^\d+$/;

/** "1,039000" → "1.039000" (HNB and CNB write decimal commas). */
function commaDecimal(provider: FxProvider, value: unknown, what: string): string {
  if (typeof value !== 'string' || !COMMA_DECIMAL.test(value.trim()))
    throw new FeedError(provider, `${what}: "${String(value)}" is not a decimal-comma number`);
  return value.trim().replace(',', '.');
}

function jsonOf(provider: FxProvider, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new FeedError(provider, 'not valid JSON (truncated?)');
  }
}

/**
 * HNB exchange-rate list v3 (`api.hnb.hr/tecajn-eur/v3`): a JSON array of rows, one per currency and
 * application date, numbers as decimal-comma strings, foreign units per 1 EUR. A range query returns
 * the rows of several dates in one array. We keep the middle rate (`srednji_tecaj`).
 */
export function parseHnb(text: string): Publication[] {
  const rows = jsonOf('HNB', text);
  if (!Array.isArray(rows) || rows.length === 0) throw new FeedError('HNB', 'expected a non-empty JSON array');
  const byDate = new Map<string, Publication>();
  rows.forEach((row: Record<string, unknown>, i) => {
    if (!row || typeof row !== 'object') throw new FeedError('HNB', `row ${i} is not an object`);
    const date = row.datum_primjene;
    const currency = row.valuta;
    if (typeof date !== 'string' || typeof currency !== 'string')
      throw new FeedError('HNB', `row ${i} lacks datum_primjene or valuta`);
    const rate = commaDecimal('HNB', row.srednji_tecaj, `row ${i} (${currency}) srednji_tecaj`);
    commaDecimal('HNB', row.kupovni_tecaj, `row ${i} (${currency}) kupovni_tecaj`);
    commaDecimal('HNB', row.prodajni_tecaj, `row ${i} (${currency}) prodajni_tecaj`);
    const reference = typeof row.broj_tecajnice === 'string' ? row.broj_tecajnice : null;
    const publication = byDate.get(date) ?? { provider: 'HNB' as const, date, reference, rates: [] };
    if (publication.reference !== reference) throw new FeedError('HNB', `${date} has two list numbers`);
    publication.rates.push({ currency, rate, units: 1 });
    byDate.set(date, publication);
  });
  return checkPublications('HNB', [...byDate.values()]);
}

const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g;
const CUBE_TAG = /<(\/?)Cube\b([^>]*?)(\/?)>/g;

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(ATTRIBUTE)) out[m[1]!] = m[2] ?? m[3] ?? '';
  return out;
}

/**
 * ECB euro foreign exchange reference rates (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`,
 * `eurofxref-hist.xml`): a gesmes envelope whose `<Cube time='…'>` elements each hold
 * `<Cube currency='USD' rate='1.1225'/>` rows, foreign units per 1 EUR. The envelope must be closed:
 * a truncated download is refused.
 */
export function parseEcb(text: string): Publication[] {
  if (!/<gesmes:Envelope\b/.test(text) || !/<\/gesmes:Envelope>\s*$/.test(text))
    throw new FeedError('ECB', 'not a complete gesmes:Envelope document (truncated?)');
  const publications: Publication[] = [];
  let current: Publication | undefined;
  let depth = 0;
  for (const m of text.matchAll(CUBE_TAG)) {
    const [, closing, attrs, selfClosing] = m;
    if (closing) {
      if (depth === 2) current = undefined;
      depth -= 1;
      if (depth < 0) throw new FeedError('ECB', 'unbalanced Cube elements');
      continue;
    }
    const a = attributes(attrs ?? '');
    const level = depth + 1;
    if (level === 2) {
      if (!a.time) throw new FeedError('ECB', 'a dated Cube lacks its time attribute');
      current = { provider: 'ECB', date: a.time, reference: null, rates: [] };
      publications.push(current);
    } else if (level === 3) {
      if (!current) throw new FeedError('ECB', 'a rate outside a dated Cube');
      if (!a.currency || !a.rate) throw new FeedError('ECB', `a rate on ${current.date} lacks currency or rate`);
      if (!/^\d+(\.\d+)?$/.test(a.rate)) throw new FeedError('ECB', `${a.currency} on ${current.date}: "${a.rate}"`);
      current.rates.push({ currency: a.currency, rate: a.rate, units: 1 });
    } else if (level !== 1) {
      throw new FeedError('ECB', 'Cube elements nested too deep');
    }
    if (!selfClosing) depth = level;
  }
  if (depth !== 0) throw new FeedError('ECB', 'unclosed Cube elements (truncated?)');
  for (const p of publications) if (p.rates.length === 0) throw new FeedError('ECB', `${p.date} has no rates`);
  return checkPublications('ECB', publications);
}

const CNB_HEADER = /^(\d{2})\.(\d{2})\.(\d{4}) #(\d+)$/;
const CNB_COLUMNS = 'země|měna|množství|kód|kurz';

const CNB_YEAR_COLUMN = /^(\d+) ([A-Z]{3})$/;
const CNB_ROW_DATE = /^(\d{2})\.(\d{2})\.(\d{4})$/;

/**
 * CNB yearly history (`rok.txt?rok=YYYY`, "kurzy devizového trhu za rok"): a `Datum|1 AUD|100 HUF|…` header
 * (again wherever the currency set changes within the year), then one `DD.MM.YYYY|15,825|…` row per
 * publication, CZK per the column's amount, decimal commas. It carries no list numbers. Every row must have
 * a rate under every column of its header.
 */
function parseCnbYear(lines: string[]): Publication[] {
  let columns: Array<{ units: number; currency: string }> | undefined;
  const publications: Publication[] = [];
  lines.forEach((line, i) => {
    const cells = line.split('|').map((c) => c.trim());
    if (cells[0] === 'Datum') {
      columns = cells.slice(1).map((cell) => {
        const m = CNB_YEAR_COLUMN.exec(cell);
        if (!m) throw new FeedError('CNB', `line ${i + 1}: column "${cell}" is not "amount CODE"`);
        return { units: Number(m[1]), currency: m[2]! };
      });
      return;
    }
    const date = CNB_ROW_DATE.exec(cells[0] ?? '');
    if (!date || !columns) throw new FeedError('CNB', `line ${i + 1} is neither a "Datum|…" header nor a dated row`);
    if (cells.length !== columns.length + 1)
      throw new FeedError('CNB', `line ${i + 1} has ${cells.length - 1} rates for ${columns.length} columns`);
    const [, dd, mm, yyyy] = date;
    const rates = columns.map(({ units, currency }, k) => ({
      currency,
      units,
      rate: commaDecimal('CNB', cells[k + 1], `line ${i + 1} (${currency})`),
    }));
    publications.push({ provider: 'CNB', date: `${yyyy}-${mm}-${dd}`, reference: null, rates });
  });
  return checkPublications('CNB', publications);
}

/**
 * CNB's two formats, told apart by line 1: the yearly history (`Datum|…`, see `parseCnbYear`) or the daily
 * list. CNB daily rates (`denni_kurz.txt`): line 1 `21.09.2022 #184` (date and list number), line 2 the column
 * names, then `country|currency|amount|code|rate` rows with decimal commas: CZK per `amount` units.
 * Every row must be whole; a short or malformed line refuses the file.
 */
export function parseCnb(text: string): Publication[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .split('\n');
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  if ((lines[0] ?? '').startsWith('Datum|')) return parseCnbYear(lines);
  const header = CNB_HEADER.exec((lines[0] ?? '').trim());
  if (!header) throw new FeedError('CNB', `line 1 "${lines[0] ?? ''}" is not "DD.MM.YYYY #n"`);
  if ((lines[1] ?? '').trim() !== CNB_COLUMNS) throw new FeedError('CNB', `line 2 is not "${CNB_COLUMNS}"`);
  const [, dd, mm, yyyy, no] = header;
  const rates: QuotedRate[] = lines.slice(2).map((line, i) => {
    const cells = line.split('|');
    if (cells.length !== 5) throw new FeedError('CNB', `line ${i + 3} has ${cells.length} fields, not 5`);
    const [, , amount, code, rate] = cells.map((c) => c.trim());
    if (!/^\d+$/.test(amount!)) throw new FeedError('CNB', `line ${i + 3}: amount "${amount}"`);
    return { currency: code!, rate: commaDecimal('CNB', rate, `line ${i + 3} (${code}) kurz`), units: Number(amount) };
  });
  if (rates.length === 0) throw new FeedError('CNB', 'no rates');
  return checkPublications('CNB', [{ provider: 'CNB', date: `${yyyy}-${mm}-${dd}`, reference: no!, rates }]);
}

/**
 * NBP table A (`api.nbp.pl/api/exchangerates/tables/A/{date}?format=json`, or a date range): an array of
 * tables `{table: "A", no, effectiveDate, rates: [{currency, code, mid}]}`, PLN per 1 unit. `mid` is a
 * JSON number with at most 6 decimals: read exactly through @travel/money (decision 0020).
 */
export function parseNbp(text: string): Publication[] {
  const tables = jsonOf('NBP', text);
  if (!Array.isArray(tables) || tables.length === 0) throw new FeedError('NBP', 'expected a non-empty JSON array');
  const publications = tables.map((t: Record<string, unknown>, i): Publication => {
    if (!t || t.table !== 'A') throw new FeedError('NBP', `table ${i} is not a table A`);
    if (typeof t.effectiveDate !== 'string' || typeof t.no !== 'string' || !Array.isArray(t.rates))
      throw new FeedError('NBP', `table ${i} lacks no, effectiveDate or rates`);
    const date = t.effectiveDate;
    const rates = t.rates.map((r: Record<string, unknown>): QuotedRate => {
      if (typeof r?.code !== 'string') throw new FeedError('NBP', `a rate on ${date} lacks its code`);
      let mid: string;
      try {
        mid = parseWireDecimal(r.mid, { positive: true }).toString();
      } catch {
        throw new FeedError('NBP', `${r.code} on ${date}: mid "${String(r.mid)}" is not a positive number`);
      }
      return { currency: r.code, rate: mid, units: 1 };
    });
    return { provider: 'NBP', date, reference: t.no, rates };
  });
  return checkPublications('NBP', publications);
}

export const FEED_PARSERS: Readonly<Record<FxProvider, (text: string) => Publication[]>> = {
  HNB: parseHnb,
  ECB: parseEcb,
  CNB: parseCnb,
  NBP: parseNbp,
};

/** Which parser a recorded file needs, from its name's prefix (`hnb-…`, `ecb-…`, `cnb-…`, `nbp-…`). */
export function providerOfFileName(name: string): FxProvider | undefined {
  const prefix = name.toLowerCase().split(/[-_.]/)[0];
  return (['HNB', 'ECB', 'CNB', 'NBP'] as const).find((p) => p.toLowerCase() === prefix);
}
