// The tables agree with the research, row by row (docs/decisions/0187). The expected figures come from
// the vendored Markdown (research/foreign/*.md), read here with a small parser of this test's own (not the
// generator's), so that a generator bug cannot agree with itself: every table row of the research is
// asked of the lookups, statutory rows as known amounts with their act, single-source rows and conflicts as
// unknown answers that name the reported figure.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNTRY_CODES } from './countries';
import { foreignRate, type Lookup } from './lookup';
import type { ForeignRate, Market } from './types';

const PACKAGE = join(__dirname, '..');
const research = (file: string) => readFileSync(join(PACKAGE, 'research', file), 'utf8');

/** The rows (cells, unformatted) of the first Markdown table after the line that starts with `heading`. */
function rowsAfter(md: string, heading: string): string[][] {
  const lines = md.split('\n');
  const at = lines.findIndex((l) => l.startsWith(heading));
  if (at < 0) throw new Error(`no heading ${heading}`);
  const start = lines.findIndex((l, i) => i > at && l.startsWith('|'));
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    rows.push(
      lines[i]!.split('|')
        .slice(1, -1)
        .map((c) => c.replace(/\*\*/g, '').trim()),
    );
  }
  return rows;
}

const number = (cell: string) => /\d+(\.\d+)?/.exec(cell)![0];

function expectKnown(l: Lookup<ForeignRate>, amount: string, currency: string, act: RegExp, hotelLimit?: string) {
  expect(l.status).toBe('known');
  if (l.status !== 'known') return;
  expect(l.row).toMatchObject({ amount, currency, ...(hotelLimit ? { hotelLimit } : {}) });
  expect(l.row.source.act).toMatch(act);
}

function expectReported(l: Lookup<ForeignRate>, amount: string, currency: string, hotelLimit?: string) {
  expect(l.status).toBe('unknown');
  expect(l.reported).toContainEqual(
    expect.objectContaining({ amount, currency, ...(hotelLimit ? { hotelLimit } : {}) }),
  );
}

describe('the vendored research', () => {
  const shared = join(PACKAGE, '..', '..', '..', 'shared', 'research');
  const files = ['REGULATIONS.md', ...readdirSync(join(PACKAGE, 'research', 'foreign')).map((f) => `foreign/${f}`)];
  (existsSync(shared) ? it : it.skip)('equals ../shared/research byte for byte', () => {
    for (const f of files) expect([f, research(f)]).toEqual([f, readFileSync(join(shared, f), 'utf8')]);
  });
  it('holds the five markets', () => {
    expect(files.sort()).toEqual(
      ['CZ', 'HR', 'PL', 'SI', 'SK']
        .map((m) => `foreign/${m}.md`)
        .concat('REGULATIONS.md')
        .sort(),
    );
  });
});

describe('CZ (research/foreign/CZ.md): both annexes whole, statutory', () => {
  const md = research('foreign/CZ.md');
  const rows = rowsAfter(md, '## Full table');
  const years = [
    { col: 3, date: '2025-06-01', act: /373\/2024 Sb\./ },
    { col: 4, date: '2026-06-01', act: /489\/2025 Sb\./ },
  ];
  const own = rows.filter((r) => /^[A-Z]{2}$/.test(r[0]!));
  it('reads 174 countries, 3 groups and the rest', () => {
    expect([own.length, rows.filter((r) => r[0]!.startsWith('group')).length, rows.length]).toEqual([174, 3, 178]);
  });
  it.each(own.map((r) => [r[0]!, r] as const))('%s in 2025 and 2026', (code, r) => {
    for (const y of years) {
      const currencies = r[2]!.split('→');
      const currency = / ([A-Z]{3})/.exec(r[y.col]!)?.[1] ?? currencies[y.col === 3 ? 0 : currencies.length - 1]!;
      expectKnown(foreignRate('CZ', code, y.date), number(r[y.col]!), currency, y.act);
    }
  });
  // Footnote members: the "Name XX" items of the lines under "Group rows" (parenthesised text names none).
  const section = md.slice(md.indexOf('### Group rows'), md.indexOf('Name changes versus 2024'));
  const groups = section.split(/\n- /).filter((g) => /^\*\*[¹²³]⁾/.test(g));
  it('expands the 3 groups into their footnote members (TC only in 2026)', () => {
    expect(groups).toHaveLength(3);
    for (const g of groups) {
      const row = rows.find((r) => r[1]!.startsWith(/^\*\*[¹²³]⁾ (.+?)\*\*/.exec(g)![1]!))!;
      const members = [
        ...g
          .split('\n')
          .filter((l) => l.startsWith('  - ') && !l.includes('**'))
          .join(', ')
          .replace(/\([^)]*\)/g, '')
          .matchAll(/ ([A-Z]{2})(?=,|$)/g),
      ].map((m) => m[1]!);
      expect(members.length).toBeGreaterThan(8);
      for (const code of members) {
        const ownRow = own.find((r) => r[0] === code);
        for (const y of years) {
          expectKnown(
            foreignRate('CZ', code, y.date),
            number((ownRow ?? row)[y.col]!),
            ownRow ? ownRow[2]! : row[2]!,
            y.act,
          );
        }
      }
    }
    expectKnown(foreignRate('CZ', 'TC', '2026-06-01'), '60', 'USD', /489\/2025/);
    expectKnown(foreignRate('CZ', 'TC', '2025-06-01'), '35', 'EUR', /373\/2024/);
  });
  it('"Ostatní země neuvedené v příloze" 35 EUR for a country the annex does not list (GL, FO, AU, XK is listed)', () => {
    const rest = rows.find((r) => r[1]!.startsWith('Ostatní země'))!;
    for (const code of ['GL', 'FO', 'AU', 'AQ']) {
      const l = foreignRate('CZ', code, '2026-06-01');
      expectKnown(l, number(rest[4]!), rest[2]!, /489\/2025/);
      expect(l.status === 'known' && l.row.source.provision).toMatch(/Ostatní země/);
    }
    expectKnown(foreignRate('CZ', 'XK', '2026-06-01'), '50', 'EUR', /489\/2025/);
  });
  it('a group member: Fiji (FJ) takes "Austrálie a Oceánie – ostrovní státy" 70 USD', () => {
    const l = foreignRate('CZ', 'FJ', '2026-06-01');
    expectKnown(l, '70', 'USD', /489\/2025/);
    expect(l.status === 'known' && l.row.source.provision).toMatch(/Austrálie a Oceánie/);
  });
  it('every country code has a rate in both years (the table is complete)', () => {
    for (const date of ['2025-06-01', '2026-06-01']) {
      expect(COUNTRY_CODES.filter((c) => c !== 'CZ' && foreignRate('CZ', c, date).status !== 'known')).toEqual([]);
    }
  });
});

describe('PL (research/foreign/PL.md): the annex from 2022-11-29', () => {
  const md = research('foreign/PL.md');
  const rows = rowsAfter(md, '## Table: annex as in force from 2022-11-29');
  const act = /2022 poz\. 2302/;
  it.each(rows.map((r) => [r[0]!, r[1]!, r] as const))('%s (%s)', (code, _name, r) => {
    const [, , currency, dieta, limit, , checked] = r;
    if (code.startsWith('—')) {
      // "Państwa inne niż wymienione": every code not listed, CG excepted.
      expectKnown(foreignRate('PL', 'GL', '2024-06-03'), dieta!, currency!, act, limit);
      expect(foreignRate('PL', 'CG', '2024-06-03').status).toBe('unknown');
    } else if (checked!.startsWith('yes')) {
      expectKnown(foreignRate('PL', code, '2024-06-03'), dieta!, currency!, act, limit);
      expect(
        foreignRate('PL', code, '2024-06-03').status === 'known' && foreignRate('PL', code, '2024-06-03'),
      ).toMatchObject({
        row: { effectiveFrom: '2022-11-29' },
      });
    } else if (code.startsWith('US (')) {
      // New York, Washington: named beside the US row, never priced.
      const l = foreignRate('PL', 'US', '2024-06-03');
      expect(l.status === 'known' && l.row.hotelLimit).toBe('200');
      expect(l.reported).toContainEqual(
        expect.objectContaining({ hotelLimit: limit, note: expect.stringContaining(code.slice(4, -1)) }),
      );
    } else {
      expect(checked).toMatch(/^partial/);
      expectReported(foreignRate('PL', code.startsWith('CD?') ? 'CG' : code, '2024-06-03'), dieta!, currency!, limit);
    }
  });
  it('before 2022-11-29 (note 8): "G: same" rows statutory, the others reported', () => {
    const names = new Map(rows.map((r) => [r[1]!.replace(/ \(.*$/, ''), [r[0]!]]));
    names.set('Palestyńska Władza Narodowa', ['PS']);
    names.set('Serbia i Czarnogóra', ['RS', 'ME']);
    const note = md.slice(md.indexOf('8. **Values before 29.11.2022**'), md.indexOf('9. **Rules that sit outside'));
    const entries = note
      .split('\n')
      .filter((l) => l.startsWith('   - '))
      .flatMap((l) => l.slice(5).split('; '));
    expect(entries.length).toBeGreaterThan(40);
    for (const e of entries) {
      const m = /^(.+) ([A-Z]{3}) (\d+)\/(\d+)( \(G: same\))?$/.exec(e)!;
      for (const code of names.get(m[1]!)!) {
        const l = foreignRate('PL', code, '2020-06-01');
        if (m[5]) expectKnown(l, m[3]!, m[2]!, /2013 poz\. 167/, m[4]);
        else expectReported(l, m[3]!, m[2]!, m[4]);
      }
    }
    expectKnown(foreignRate('PL', 'AT', '2022-11-28'), '52', 'EUR', /2013/, '130');
    expect(foreignRate('PL', 'CZ', '2022-11-28').status).toBe('unknown');
  });
});

describe('SK (research/foreign/SK.md): opatrenie 401/2012 Z. z., cross-checked rows statutory', () => {
  const rows = rowsAfter(research('foreign/SK.md'), '## Table 1');
  it('reads 193 rows, 34 cross-checked', () => {
    expect([rows.length, rows.filter((r) => r[5]!.startsWith('yes')).length]).toEqual([193, 34]);
  });
  it.each(rows.map((r) => [r[0]!, r] as const))('%s', (code, r) => {
    const currency = r[2]!.replace('†', '');
    if (r[5]!.startsWith('yes')) expectKnown(foreignRate('SK', code, '2026-06-01'), r[3]!, currency, /401\/2012/);
    else expectReported(foreignRate('SK', code, '2026-06-01'), r[3]!, currency);
  });
  it('a reported row: Japan 6500 JPY, unknown, named with its source and why', () => {
    expect(foreignRate('SK', 'JP', '2026-06-01')).toMatchObject({
      status: 'unknown',
      reported: [{ amount: '6500', currency: 'JPY', source: expect.stringMatching(/401\/2012/), note: /one source/ }],
    });
  });
});

describe('HR (research/foreign/HR.md): the 36 rows of NN 16/24 read, the rest unread', () => {
  const md = research('foreign/HR.md');
  const rows = rowsAfter(md, '## Table: rows read').filter((r) => /^[A-Z]{2}$/.test(r[0]!));
  it('reads 36 rows', () => expect(rows).toHaveLength(36));
  it.each(rows.map((r) => [r[0]!, r] as const))('%s', (code, r) => {
    const l = foreignRate('HR', code, '2026-06-01');
    expectKnown(l, r[3]!, r[2]!, /NN 16\/24/);
    expect(l.status === 'known' && l.row.source.provision).toMatch(/čl\. 7 st\. 2 Pravilnika o porezu na dohodak/);
  });
  it('an unread row (DE) is unknown, says so and what applies if unlisted, and is never 50 USD', () => {
    const l = foreignRate('HR', 'DE', '2026-06-01');
    expect(l.status).toBe('unknown');
    expect(l.reported).toBeUndefined();
    expect(l.status === 'unknown' && l.reason).toMatch(/unread/);
    expect(l.status === 'unknown' && l.reason).toMatch(/not listed in the Odluka at all, 50 USD/);
    // The NN 8/06 table (superseded) is research context only, never a rate.
    expect(foreignRate('HR', 'IT', '2026-06-01').status).toBe('unknown');
  });
});

describe('SI (research/foreign/SI.md): the annex 2021–2025', () => {
  const rows = rowsAfter(research('foreign/SI.md'), '### 2b.');
  it('reads 51 rows', () => expect(rows).toHaveLength(51));
  it.each(rows.map((r) => [r[0]!.slice(0, 2), r] as const))('%s', (code, r) => {
    const usd = /USD (\d+)/.exec(r[2]!);
    const [amount, currency] = usd ? [usd[1]!, 'USD'] : [number(r[2]!), 'EUR'];
    const l = foreignRate('SI', code, '2024-06-03');
    if (r[5]!.startsWith('yes')) expectKnown(l, amount, currency, /76\/2019/);
    else if (r[5]!.startsWith('no')) expectReported(l, amount, currency);
    else {
      expect(r[5]).toMatch(/^CONFLICT/);
      for (const m of r[2]!.matchAll(/(\d+) \(/g)) expectReported(l, m[1]!, 'EUR');
      expect(l.reported).toHaveLength(2);
    }
    expect(foreignRate('SI', code, '2026-06-01').status).toBe('unknown');
  });
});

describe('every market', () => {
  it.each(['CZ', 'PL', 'SK', 'HR', 'SI'] as Market[])('%s: no reported figure is also priced on the same date', (m) => {
    for (const c of COUNTRY_CODES) {
      const l = foreignRate(m, c, '2024-06-03');
      if (l.status === 'known' && l.reported) expect([m, c]).toEqual(['PL', 'US']);
    }
  });
});
