// Generates the foreign per-diem rows of src/tables/generated/ from the research vendored in research/
// (docs/decisions/0187). Each Markdown table row is classified by the research's rule (REGULATIONS.md,
// third pass): read in the official text or a faithful reproduction of the whole table, or in two
// independent sources → statutory (`foreignRates`, priced); read in one secondary source only → reported
// (`reportedRates`, named on an unknown answer, never priced); a conflict → both figures reported.
//
//   npx tsx packages/regulations/scripts/import-research.ts          # (re)write src/tables/generated/*.ts
//   npx tsx packages/regulations/scripts/import-research.ts --check  # fail when a generated file is stale
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { COUNTRY_CODES } from '../src/countries';
import type { ForeignRate, LegalSource, Market, ReportedRate } from '../src/types';

const PACKAGE = join(__dirname, '..');
const RESEARCH = join(PACKAGE, 'research');
const OUT = join(PACKAGE, 'src', 'tables', 'generated');

// ---------------------------------------------------------------------------------------------------------
// Markdown tables

interface MdTable {
  /** The nearest heading above the table (without the #s). */
  heading: string;
  header: string[];
  rows: string[][];
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

export function markdownTables(md: string): MdTable[] {
  const tables: MdTable[] = [];
  let heading = '';
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '').trim();
    if (!line.startsWith('|') || !/^\|[\s:|-]+\|\s*$/.test(lines[i + 1] ?? '')) continue;
    const header = cellsOf(line);
    const rows: string[][] = [];
    i += 2;
    while (i < lines.length && lines[i]!.startsWith('|')) rows.push(cellsOf(lines[i++]!));
    i--;
    tables.push({ heading, header, rows });
  }
  return tables;
}

function tableUnder(md: string, file: string, heading: RegExp): MdTable {
  const found = markdownTables(md).filter((t) => heading.test(t.heading));
  if (found.length !== 1)
    throw new Error(`${file}: expected one table under a heading ${heading}, found ${found.length}`);
  return found[0]!;
}

const read = (path: string) => readFileSync(join(RESEARCH, path), 'utf8');
const CODE = /^[A-Z]{2}$/;
const plain = (cell: string) => cell.replace(/\*\*/g, '').replace(/[▲†]/g, '').trim();

function isoCode(cell: string, file: string): string {
  const code = plain(cell).split(/\s/)[0]!;
  if (!CODE.test(code) || !COUNTRY_CODES.includes(code)) throw new Error(`${file}: not a known country code: ${cell}`);
  return code;
}

/** `45`, `45 EUR`, `55 USD ▲` → the amount and the currency when the cell names one. */
function amountOf(cell: string, file: string): { amount: string; currency?: string } {
  const m = /^(\d+(?:\.\d+)?)(?:\s+([A-Z]{3}))?$/.exec(plain(cell));
  if (!m) throw new Error(`${file}: not an amount: ${cell}`);
  return { amount: m[1]!, ...(m[2] ? { currency: m[2] } : {}) };
}

// ---------------------------------------------------------------------------------------------------------
// What a market file becomes

interface Generated {
  market: Market;
  file: string;
  /** Comment lines under the header. */
  notes: string[];
  sources: Record<string, LegalSource>;
  /** [countryCode, amount, currency, sourceKey, from, to, hotelLimit?] */
  rates: { r: Omit<ForeignRate, 'market' | 'source'>; source: string }[];
  reported: Omit<ReportedRate, 'market'>[];
}

const SINCE_ANNEX = (g: Generated) => `${g.market}: ${g.rates.length} statutory, ${g.reported.length} reported rows`;

// ---------------------------------------------------------------------------------------------------------
// CZ: vyhl. 373/2024 Sb. (2025) and 489/2025 Sb. (2026), read whole in the e-Sbírka mirror: all statutory.

const CZ_YEARS = [
  { year: 2025, act: 'Vyhláška č. 373/2024 Sb.', key: 'FL25', from: '2025-01-01', to: '2025-12-31' },
  { year: 2026, act: 'Vyhláška č. 489/2025 Sb.', key: 'FL26', from: '2026-01-01', to: '2026-12-31' },
] as const;
const CZ_PROVISION = '§ 170 odst. 1 zákoníku práce; příloha vyhlášky';
const CZ_MIRROR = 'e-Sbírka text mirrored in GitHub flatiocom/czech-law-md';

/** The footnote members of the three group rows: `¹⁾` → [{code, onlyYear?}] (ISO mapping of the research). */
function czGroups(md: string): Map<number, { code: string; onlyYear?: number }[]> {
  const section = md.split('### Group rows')[1]?.split('\n## ')[0];
  if (!section) throw new Error('CZ.md: no "Group rows" section');
  const groups = new Map<number, { code: string; onlyYear?: number }[]>();
  let current: number | null = null;
  for (const line of section.split('\n')) {
    const head = /^- \*\*([¹²³])⁾/.exec(line);
    if (head) {
      current = '¹²³'.indexOf(head[1]!) + 1;
      groups.set(current, []);
      continue;
    }
    if (/^- /.test(line)) current = null; // "Ostatní země": not a group
    if (current === null || !/^\s+- /.test(line)) continue;
    const text = line.replace(/^\s+- /, '');
    const only = /^\*\*plus .* ([A-Z]{2}) in (\d{4}) only/.exec(text);
    if (only) {
      groups.get(current)!.push({ code: only[1]!, onlyYear: Number(only[2]) });
      continue;
    }
    // Items "Name CODE" separated by commas outside parentheses; an item without a code (Easter Island,
    // "Australia (AU) itself is not …") names no member.
    let depth = 0;
    let item = '';
    const items: string[] = [];
    for (const ch of text) {
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      if (ch === ',' && depth === 0) {
        items.push(item.trim());
        item = '';
      } else item += ch;
    }
    items.push(item.trim());
    for (const it of items) {
      const m = /^[^()*]+ ([A-Z]{2})$/.exec(it);
      if (m) groups.get(current)!.push({ code: m[1]! });
    }
  }
  return groups;
}

function cz(): Generated {
  const file = 'foreign/CZ.md';
  const md = read(file);
  const t = tableUnder(md, file, /^Full table/);
  const groups = czGroups(md);
  const g: Generated = {
    market: 'CZ',
    file,
    notes: [
      'Both annexes whole (174 countries, 3 group rows expanded into their footnote members, a member with a row',
      'of its own keeping it), and "Ostatní země neuvedené v příloze" for every other country code.',
    ],
    sources: {},
    rates: [],
    reported: [],
  };
  for (const y of CZ_YEARS) {
    const listed = new Set<string>();
    const rows: { kind: 'country' | 'group' | 'rest'; cells: string[] }[] = t.rows.map((cells) => ({
      kind: cells[0]!.startsWith('group') ? 'group' : cells[0]!.startsWith('*') ? 'rest' : 'country',
      cells,
    }));
    g.sources[`${y.key}`] = { act: y.act, provision: CZ_PROVISION, reportedBy: `${CZ_MIRROR} (${y.key})` };
    const cur = (cells: string[]) => {
      const currencies = plain(cells[2]!).split('→');
      return y.year === 2025 ? currencies[0]! : currencies[currencies.length - 1]!;
    };
    const amount = (cells: string[]) => {
      const a = amountOf(cells[y.year === 2025 ? 3 : 4]!, file);
      return { amount: a.amount, currency: a.currency ?? cur(cells) };
    };
    const add = (countryCode: string, a: { amount: string; currency: string }, source: string) => {
      g.rates.push({ r: { countryCode, ...a, effectiveFrom: y.from, effectiveTo: y.to }, source });
      listed.add(countryCode);
    };
    for (const { cells } of rows.filter((r) => r.kind === 'country'))
      add(isoCode(cells[0]!, file), amount(cells), y.key);
    for (const { cells } of rows.filter((r) => r.kind === 'group')) {
      const n = Number(/fn (\d)/.exec(cells[0]!)![1]);
      const name = plain(cells[1]!).replace(/[¹²³]⁾$/, '');
      const key = `${y.key}_G${n}`;
      g.sources[key] = {
        act: y.act,
        provision: `${CZ_PROVISION}, řádek „${name}“ (poznámka ${n})`,
        reportedBy: `${CZ_MIRROR} (${y.key})`,
      };
      for (const m of groups.get(n) ?? []) {
        if (listed.has(m.code) || (m.onlyYear !== undefined && m.onlyYear !== y.year)) continue;
        add(m.code, amount(cells), key);
      }
    }
    const rest = rows.filter((r) => r.kind === 'rest');
    if (rest.length !== 1) throw new Error(`${file}: expected one "Ostatní země" row`);
    const key = `${y.key}_REST`;
    g.sources[key] = {
      act: y.act,
      provision: `${CZ_PROVISION}, řádek „${plain(rest[0]!.cells[1]!)}“`,
      reportedBy: `${CZ_MIRROR} (${y.key})`,
    };
    for (const code of COUNTRY_CODES) if (code !== 'CZ' && !listed.has(code)) add(code, amount(rest[0]!.cells), key);
  }
  return g;
}

// ---------------------------------------------------------------------------------------------------------
// PL: the annex in force from 2022-11-29 (Dz.U. 2022 poz. 2302), from transcriptions: two sources → statutory.

const PL_ACT =
  'Rozporządzenie MPiPS z dnia 29 stycznia 2013 r., załącznik w brzmieniu Dz.U. 2022 poz. 2302 (tekst jednolity Dz.U. 2023 poz. 2190)';
const PL_ACT_2013 = 'Rozporządzenie MPiPS z dnia 29 stycznia 2013 r. (Dz.U. 2013 poz. 167), załącznik';
const PL_FROM = '2022-11-29';
const PL_2013 = { from: '2013-03-01', to: '2022-11-28' };
const PL_A = 'GitHub barfrakud/rozliczpws (rozliczPWS.pl)';
const PL_SOURCES: Record<string, string> = {
  A: PL_A,
  B: 'GitHub DrPatroleum/b130n',
  C: 'pit.pl (2026)',
  D: 'tsl-biznes.pl (changes from 29.11.2022)',
  E: 'pracodawcy.pl',
  F: 'gazetaprawna.pl (2026-01-25)',
  G: 'business-service.net.pl (2013 table)',
  H: 'a 2013 annex transcription',
  brief: 'the product research, second pass',
};
const plSources = (cell: string) =>
  [
    ...new Set(
      cell
        .split(';')
        .map((s) => plain(s).split(/[\s(]/)[0]!)
        .map((k) => PL_SOURCES[k])
        .filter((s): s is string => s !== undefined),
    ),
  ].join('; ');

/** The PL annex name of a country (A's, without D's variant) → its code, from the table. */
function plNames(t: MdTable): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const cells of t.rows) {
    if (!CODE.test(cells[0]!)) continue;
    names.set(plain(cells[1]!).replace(/\s*\(.*\)$/, ''), [cells[0]!]);
  }
  // Names of 2013 rows that the 2022 annex renamed or split (research notes 4 and 8).
  names.set('Palestyńska Władza Narodowa', ['PS']);
  names.set('Serbia i Czarnogóra', ['RS', 'ME']);
  return names;
}

function pl(): Generated {
  const file = 'foreign/PL.md';
  const md = read(file);
  const t = tableUnder(md, file, /^Table: annex as in force from 2022-11-29/);
  const g: Generated = {
    market: 'PL',
    file,
    notes: [
      'Dieta and hotel limit per country from 2022-11-29; "Państwa inne niż wymienione" for every country code not',
      'listed except CG (note 3: the annex row "Kongo" may be CG). Values before 2022-11-29: note 8.',
    ],
    sources: {},
    rates: [],
    reported: [],
  };
  const listed = new Set<string>(['PL']);
  let rest: string[] | undefined;
  for (const cells of t.rows) {
    const [codeCell, name, currency, dieta, limit, sources, checked] = cells.map(plain) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (codeCell.startsWith('—')) {
      rest = cells;
      continue;
    }
    const amount = amountOf(dieta, file).amount;
    const hotelLimit = amountOf(limit, file).amount;
    const by = plSources(sources);
    if (checked.startsWith('yes')) {
      const code = isoCode(codeCell, file);
      const key = `S_${by}`;
      g.sources[key] ??= { act: PL_ACT, provision: 'załącznik', reportedBy: by };
      g.rates.push({
        r: { countryCode: code, amount, currency, hotelLimit, effectiveFrom: PL_FROM, effectiveTo: null },
        source: key,
      });
      listed.add(code);
    } else if (checked.startsWith('partial')) {
      // "US (New York)" → US, named; "CD? (see note 3)" (the row "Kongo") → CG, not mapped as a rate.
      const city = /^US \((.+)\)$/.exec(codeCell)?.[1];
      const code = city ? 'US' : codeCell.startsWith('CD?') ? 'CG' : isoCode(codeCell, file);
      const what = checked.replace(/^partial\s*—\s*/, '').replace(/\s*\((row added|unchanged since|changed in).*$/, '');
      g.reported.push({
        countryCode: code,
        amount,
        currency,
        hotelLimit,
        effectiveFrom: PL_FROM,
        effectiveTo: null,
        act: PL_ACT,
        reportedBy: by,
        note: `${city ? `${city} (annex row "${name}")` : `annex row "${name}"`}${
          codeCell.startsWith('CD?') ? ' (may mean CG, CD or both; research note 3)' : ''
        }: partial: ${what}`,
      });
      if (code !== 'US') listed.add(code);
    } else throw new Error(`${file}: unclassified row ${codeCell}: ${checked}`);
  }
  if (!rest) throw new Error(`${file}: no "Państwa inne niż wymienione" row`);
  const restName = plain(rest[1]!);
  const restFigure = {
    amount: amountOf(rest[3]!, file).amount,
    currency: plain(rest[2]!),
    hotelLimit: amountOf(rest[4]!, file).amount,
  };
  g.sources.REST = { act: PL_ACT, provision: `załącznik, „${restName}”`, reportedBy: plSources(rest[5]!) };
  for (const code of COUNTRY_CODES) {
    if (listed.has(code)) continue;
    g.rates.push({
      r: { countryCode: code, ...restFigure, effectiveFrom: PL_FROM, effectiveTo: null },
      source: 'REST',
    });
  }
  // CG: the annex row "Kongo" is reported above; "other countries" would apply if the row is CD's.
  g.reported.push({
    countryCode: 'CG',
    ...restFigure,
    effectiveFrom: PL_FROM,
    effectiveTo: null,
    act: PL_ACT,
    reportedBy: plSources(rest[5]!),
    note: `"${restName}": applies only if the annex row "Kongo" is not CG (research note 3)`,
  });

  // Note 8: values before 2022-11-29 for the rows the 2022 amendment changed.
  const names = plNames(t);
  const note8 = md.split('8. **Values before 29.11.2022**')[1]?.split(/\n\d+\. \*\*/)[0];
  if (!note8) throw new Error(`${file}: no note 8`);
  const entries = note8
    .split('\n')
    .filter((l) => /^\s+- /.test(l))
    .flatMap((l) => l.replace(/^\s+- /, '').split(/;\s*/));
  for (const entry of entries) {
    const m = /^(.+?) ([A-Z]{3}) (\d+)\/(\d+)( \(G: same\))?$/.exec(entry.trim());
    if (!m) throw new Error(`${file}: note 8 entry not understood: ${entry}`);
    const codes = names.get(m[1]!);
    if (!codes) throw new Error(`${file}: note 8 names an unknown country: ${m[1]}`);
    for (const code of codes) {
      const figure = { countryCode: code, amount: m[3]!, currency: m[2]!, hotelLimit: m[4]! };
      if (m[5]) {
        g.sources.S_2013 ??= { act: PL_ACT_2013, provision: 'załącznik', reportedBy: `${PL_A}; ${PL_SOURCES.G}` };
        g.rates.push({ r: { ...figure, effectiveFrom: PL_2013.from, effectiveTo: PL_2013.to }, source: 'S_2013' });
      } else {
        g.reported.push({
          ...figure,
          effectiveFrom: PL_2013.from,
          effectiveTo: PL_2013.to,
          act: PL_ACT_2013,
          reportedBy: `${PL_A}, before its 2023 update`,
          note: `one source only (row "${m[1]}" before 29.11.2022)`,
        });
      }
    }
  }
  return g;
}

// ---------------------------------------------------------------------------------------------------------
// SK: opatrenie 401/2012 Z. z. from 2013-01-01; one complete list (S1), cross-checked rows statutory.

const SK_ACT = 'Opatrenie MF SR č. 401/2012 Z. z.';
const SK_PROVISION = '§ 13 zákona č. 283/2002 Z. z.; príloha opatrenia';
const SK_SOURCES: Record<string, string> = {
  S1: 'GitHub instea/Cestovne-prikazy (2017)',
  S2: 'cesmad.sk',
  S3: 'profivodic.sk',
  S4: 'm-office.sk',
  S5: 'wenus.sk',
  S6: 'mup.sk (Verlag Dashöfer)',
  S7: 'cestovnenahrady.sk',
  S8: 'podnikam.sk (SITA)',
  S9: 'GitHub brano72/cestovne_app',
  S10: 'ip.gov.sk',
};
const skSources = (cell: string) =>
  cell
    .split(',')
    .map((s) => SK_SOURCES[s.trim()] ?? s.trim())
    .join(', ');

function sk(): Generated {
  const file = 'foreign/SK.md';
  const t = tableUnder(read(file), file, /^Table 1 /);
  const g: Generated = {
    market: 'SK',
    file,
    notes: ['Base rates of Table 1 (all employees); the 9/2026 rates of mobile road-transport workers are in sk.ts.'],
    sources: {},
    rates: [],
    reported: [],
  };
  for (const cells of t.rows) {
    const [codeCell, , currencyCell, rate, sources, checked] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const code = isoCode(codeCell, file);
    const inferred = currencyCell.includes('†');
    const currency = plain(currencyCell);
    const amount = amountOf(rate, file).amount;
    const by = skSources(sources);
    if (checked.startsWith('yes')) {
      const key = `S_${by}`;
      g.sources[key] ??= { act: SK_ACT, provision: SK_PROVISION, reportedBy: by };
      g.rates.push({
        r: { countryCode: code, amount, currency, effectiveFrom: '2013-01-01', effectiveTo: null },
        source: key,
      });
    } else if (checked.startsWith('no')) {
      g.reported.push({
        countryCode: code,
        amount,
        currency,
        effectiveFrom: '2013-01-01',
        effectiveTo: null,
        act: SK_ACT,
        reportedBy: by,
        note: `one source only, not cross-checked${inferred ? '; currency EUR inferred (the source gives a bare number)' : ''}`,
      });
    } else throw new Error(`${file}: unclassified row ${code}: ${checked}`);
  }
  return g;
}

// ---------------------------------------------------------------------------------------------------------
// HR: Odluka NN 16/24 from 2024-02-08, the 36 rows rrif.hr reproduces (Afghanistan to Iceland): statutory.

const HR_ACT =
  'Odluka o visini dnevnice za službeno putovanje u inozemstvo za korisnike koji se financiraju iz sredstava državnog proračuna (NN 16/24)';
const HR_PROVISION = 'čl. 7 st. 2 Pravilnika o porezu na dohodak; točka I. Odluke';

function hr(): Generated {
  const file = 'foreign/HR.md';
  const t = tableUnder(read(file), file, /^Table: rows read/);
  const g: Generated = {
    market: 'HR',
    file,
    notes: ['The rows read (Afghanistan to Iceland, alphabetical in Croatian); every later row is unread: unknown.'],
    sources: { RRIF: { act: HR_ACT, provision: HR_PROVISION, reportedBy: 'rrif.hr (12.02.2024)' } },
    rates: [],
    reported: [],
  };
  for (const cells of t.rows) {
    if (!CODE.test(plain(cells[0]!))) continue; // "(not listed)": the rule in hr.ts, for no country yet
    const code = isoCode(cells[0]!, file);
    g.rates.push({
      r: {
        countryCode: code,
        amount: amountOf(cells[3]!, file).amount,
        currency: plain(cells[2]!),
        effectiveFrom: '2024-02-08',
        effectiveTo: null,
      },
      source: 'RRIF',
    });
  }
  return g;
}

// ---------------------------------------------------------------------------------------------------------
// SI: UL RS 76/2019 annex, 2021-01-01 to 2025-12-31: two sources → statutory; one → reported; conflicts both.

const SI_ACT = 'Uredba o povračilu stroškov za službena potovanja v tujino (UL RS 76/2019), priloga';
const SI_PROVISION = '4. člen (2) Uredbe o davčni obravnavi povračil stroškov in drugih dohodkov iz delovnega razmerja';
const SI_SOURCES: Record<string, string> = {
  Z: 'zvezarfr.si',
  D: 'onbvzlex.dashofer.si',
  S: 'simic-partnerji.si',
  DS: 'savinjska.info (data.si)',
};
const siSources = (cell: string) =>
  cell
    .split(',')
    .map((s) => SI_SOURCES[s.trim()] ?? s.trim())
    .join(', ');

function si(): Generated {
  const file = 'foreign/SI.md';
  const t = tableUnder(read(file), file, /^2b\. /);
  const g: Generated = {
    market: 'SI',
    file,
    notes: ['The 2021–2025 annex; the 2026 regulation exists but its amounts are unread (unknown).'],
    sources: {},
    rates: [],
    reported: [],
  };
  const validity = { effectiveFrom: '2021-01-01', effectiveTo: '2025-12-31' };
  for (const cells of t.rows) {
    const [codeCell, , amountCell, , sources, checked] = cells as [string, string, string, string, string, string];
    const code = isoCode(codeCell, file);
    const c = plain(checked);
    if (c.startsWith('CONFLICT')) {
      // "**55** (D, S) / 40 (Z)": each figure with the sources that give it.
      for (const part of amountCell.split('/')) {
        const m = /^\s*\**(\d+)\**\s*\(([^)]+)\)\s*$/.exec(part);
        if (!m) throw new Error(`${file}: conflict not understood: ${amountCell}`);
        g.reported.push({
          countryCode: code,
          amount: m[1]!,
          currency: 'EUR',
          ...validity,
          act: SI_ACT,
          reportedBy: siSources(m[2]!),
          note: `conflict: ${plain(amountCell)}`,
        });
      }
      continue;
    }
    const usd = /USD (\d+)/.exec(plain(amountCell));
    const figure = { amount: usd ? usd[1]! : amountOf(amountCell, file).amount, currency: usd ? 'USD' : 'EUR' };
    const by = siSources(sources);
    if (c.startsWith('yes')) {
      const key = `S_${by}`;
      g.sources[key] ??= { act: SI_ACT, provision: SI_PROVISION, reportedBy: by };
      g.rates.push({ r: { countryCode: code, ...figure, ...validity }, source: key });
    } else if (c.startsWith('no')) {
      g.reported.push({
        countryCode: code,
        ...figure,
        ...validity,
        act: SI_ACT,
        reportedBy: by,
        note: 'one source only',
      });
    } else throw new Error(`${file}: unclassified row ${code}: ${checked}`);
  }
  return g;
}

// ---------------------------------------------------------------------------------------------------------
// Writing

const str = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function moduleText(g: Generated): string {
  const keys = Object.keys(g.sources);
  const id = (k: string) => `S${keys.indexOf(k)}`;
  const lines: string[] = [
    `// generated from research/${g.file} by scripts/import-research.ts; do not edit (docs/decisions/0187).`,
    ...g.notes.map((n) => `// ${n}`),
    `// ${SINCE_ANNEX(g)}.`,
    "import type { ForeignRate, LegalSource, ReportedRate } from '../../types';",
    '',
    ...keys.map((k) => {
      const s = g.sources[k]!;
      return `const ${id(k)}: LegalSource = { act: ${str(s.act)}, provision: ${s.provision === null ? 'null' : str(s.provision)}, reportedBy: ${str(s.reportedBy!)} };`;
    }),
    '',
    `const rate = (countryCode: string, amount: string, currency: string, effectiveFrom: string, effectiveTo: string | null, source: LegalSource, hotelLimit?: string): ForeignRate => ({ market: '${g.market}', countryCode, amount, currency, ...(hotelLimit === undefined ? {} : { hotelLimit }), effectiveFrom, effectiveTo, source });`,
    '',
    `export const FOREIGN_RATES: ForeignRate[] = [`,
    ...g.rates.map(({ r, source }) => {
      const args = [
        str(r.countryCode),
        str(r.amount),
        str(r.currency),
        r.effectiveFrom === null ? 'null' : str(r.effectiveFrom),
        r.effectiveTo === null ? 'null' : str(r.effectiveTo),
        id(source),
        ...(r.hotelLimit !== undefined ? [str(r.hotelLimit)] : []),
      ];
      return `rate(${args.join(', ')}),`;
    }),
    '];',
    '',
    `export const REPORTED_RATES: ReportedRate[] = [`,
    ...g.reported.map((r) => {
      const fields = [
        `market: '${g.market}'`,
        `countryCode: ${str(r.countryCode)}`,
        `amount: ${str(r.amount)}`,
        `currency: ${str(r.currency)}`,
        ...(r.hotelLimit !== undefined ? [`hotelLimit: ${str(r.hotelLimit)}`] : []),
        `effectiveFrom: ${r.effectiveFrom === null ? 'null' : str(r.effectiveFrom)}`,
        `effectiveTo: ${r.effectiveTo === null ? 'null' : str(r.effectiveTo)}`,
        `act: ${str(r.act)}`,
        `reportedBy: ${str(r.reportedBy)}`,
        ...(r.note !== undefined ? [`note: ${str(r.note)}`] : []),
      ];
      return `{ ${fields.join(', ')} },`;
    }),
    '];',
    '',
  ];
  return lines.join('\n');
}

export const GENERATORS: Record<Market, () => Generated> = { CZ: cz, PL: pl, SK: sk, HR: hr, SI: si };
const fileOf = (market: Market) => join(OUT, `${market.toLowerCase()}-foreign.ts`);

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const options = { ...(await resolveConfig(join(OUT, 'x.ts'))), parser: 'typescript' as const };
  const stale: string[] = [];
  for (const [market, generate] of Object.entries(GENERATORS) as [Market, () => Generated][]) {
    const text = await format(moduleText(generate()), options);
    const path = fileOf(market);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
    if (current === text) continue;
    if (check) stale.push(relative(process.cwd(), path));
    else {
      mkdirSync(OUT, { recursive: true });
      writeFileSync(path, text);
      console.log(`wrote ${relative(process.cwd(), path)}`);
    }
  }
  if (stale.length) {
    console.error(
      `stale, regenerate with npx tsx packages/regulations/scripts/import-research.ts: ${stale.join(', ')}`,
    );
    process.exit(1);
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
