import PDFDocument from 'pdfkit';
import type { TravelEntry } from '../domain/entry';
import { settlement, travelOrder } from '../domain/documents/document';
import { columns, fieldHeight, headerCell, MIN_HEAD } from './pdf-layout';

// A label that wraps (PL "Stan licznika (początkowy / końcowy)") must push the next row down, or the two
// overlap on paper.
describe('a form row', () => {
  const doc = new PDFDocument({ size: 'A4', margin: 40 });

  it('is as tall as its label when the label wraps and the value does not', () => {
    const short = fieldHeight(doc, { label: 'Zaliczka', value: '300,00 PLN' });
    const wrapped = fieldHeight(doc, { label: 'Stan licznika (początkowy / końcowy)', value: '' });
    expect(wrapped).toBeGreaterThan(short * 1.5);
  });

  it('is as tall as its value when the value wraps', () => {
    const long = 'Vyhláška č. 489/2025 Sb.; Zákon č. 262/2006 Sb., zákoník práce, §170, §179 '.repeat(4);
    expect(fieldHeight(doc, { label: 'Právní základ', value: long })).toBeGreaterThan(
      fieldHeight(doc, { label: 'Právní základ', value: 'x' }) * 1.5,
    );
  });
});

// Issue 39 §4 (docs/decisions/0206): narrow table headers broke words mid-word (PL "Państw/o", "Godzi/n",
// "Pomniejsz/enie"). Every header of every market's travel order and settlement, measured with the real font
// at its real column width: its lines break only between words, each line fits, and pdfkit draws exactly
// those lines (wraps none of them again).
describe('table headers', () => {
  const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');
  const doc = new PDFDocument({ size: 'A4', margin: 40 });
  const parties = {
    company: { name: 'X', address: null, registrationNumber: null, vatNumber: null },
    names: new Map<string, string>(),
    plates: new Map<string, string>(),
  };
  const CURRENCY = { CZ: 'CZK', SK: 'EUR', PL: 'PLN', HR: 'EUR', SI: 'EUR' } as const;
  const headers = (Object.keys(CURRENCY) as (keyof typeof CURRENCY)[]).flatMap((market) => {
    // One policy finding, so the settlement prints its findings table too (0203).
    const finding = {
      date: '2026-11-02',
      kind: 'Meals',
      rule: 'Meals',
      check: 'PerItem',
      limit: '10',
      amountOver: '1',
      onBreach: 'Flag',
    };
    const entry = {
      entryNumber: '2026-00001',
      employeeId: 'e',
      expenses: [],
      perDiems: [],
      auditLog: [],
      policyFindings: [finding],
    };
    const e = { ...entry, baseCurrency: CURRENCY[market] } as unknown as TravelEntry;
    return [travelOrder(market, e, parties), settlement(market, e, parties)].flatMap((printed) =>
      printed.sections.flatMap((s) => {
        if (!s.table) return [];
        const { ws } = columns(doc, s.table.widths);
        return s.table.head.map((text, i) => ({ where: `${market} ${s.title}`, text, width: ws[i] }));
      }),
    );
  });

  it('covers the tables of all five markets', () => {
    // Per market: itinerary and approvals on the order; itinerary, per-diems, mileage, expenses, policy
    // findings, approvals on the settlement: 4 + 4 + 4 + 9 + 7 + 6 + 6 + 4 = 44 headers, five markets.
    expect(headers).toHaveLength(5 * 44);
  });

  it('break only between words, fit their column, and are drawn as measured', () => {
    const broken: string[] = [];
    for (const { where, text, width } of headers) {
      const { fontSize, lines } = headerCell(doc, text, width);
      const inner = width - 4; // the cell's padding, 2 pt a side
      doc.font(BOLD).fontSize(fontSize);
      const lineHeight = doc.heightOfString('X', { width: inner });
      const drawnLines = Math.round(doc.heightOfString(lines.join('\n'), { width: inner }) / lineHeight);
      if (lines.join(' ') !== text.split(/\s+/).join(' ')) broken.push(`${where}: "${text}" → ${lines.join(' | ')}`);
      for (const line of lines)
        if (doc.widthOfString(line) > inner) broken.push(`${where}: "${line}" is wider than ${inner.toFixed(1)} pt`);
      if (drawnLines !== lines.length)
        broken.push(`${where}: "${text}" is drawn on ${drawnLines} lines, not ${lines.length}`);
      if (fontSize < MIN_HEAD) broken.push(`${where}: "${text}" at ${fontSize} pt`);
    }
    expect(broken).toEqual([]);
  });

  it('shrinks a word wider than its column, and a label too long for that is abbreviated', () => {
    // PL per-diem table (columns 1.2 0.7 0.6 1.3 0.9 1 1.3 1.5 2.6 of 515.28 pt): "Państwo" in 0.7 / 11.1 × 515.28 = 32.50 pt less 4
    // of padding; the bold 7.5 pt word is about 32.2 pt wide, so it is set smaller, on one line.
    const country = headers.find((h) => h.where === 'PL Diety' && h.text === 'Państwo')!;
    expect(country.width).toBeCloseTo((0.7 / 11.1) * 515.28, 1);
    const cell = headerCell(doc, country.text, country.width);
    expect(cell.lines).toEqual(['Państwo']);
    expect(cell.fontSize).toBeLessThan(7.5);
    expect(cell.fontSize).toBeGreaterThanOrEqual(MIN_HEAD);
    // "Godzin" and "Pomniejszenie" are abbreviated as the official forms do.
    expect(headers.filter((h) => h.where === 'PL Diety').map((h) => h.text)).toEqual(
      expect.arrayContaining(['Godz.', 'Pomniejsz.']),
    );
    // Words that fit stay on the lines they fill: "Posiłki Ś/O/K" is never cut after a slash.
    expect(headerCell(doc, 'Posiłki Ś/O/K', country.width * (0.9 / 0.7)).lines).toEqual(['Posiłki', 'Ś/O/K']);
  });
});
