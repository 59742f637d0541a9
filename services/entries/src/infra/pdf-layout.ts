// The one layout every market's travel order and settlement is drawn with (docs/decisions/0137, 0138):
// pdfkit, A4, DejaVu Sans (from the dejavu-fonts-ttf package) embedded as a subset so č ć đ š ž ř ů ě ł ą
// ę ś ź ż ő ä ô ĺ ľ ŕ print on any reader. Rows are measured before they are drawn, so nothing overlaps
// and a table row that does not fit starts a new page.
import PDFDocument from 'pdfkit';
import type { Field, PrintedDocument, Section, Table } from '../domain/documents/document';

const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');
const MARGIN = 40;
const TEXT = 9;
const SMALL = 7.5;
const PAD = 2;
/** The smallest a table header's font shrinks to; a word that needs less gets an abbreviated label (0206). */
export const MIN_HEAD = 6.5;
const LABEL_WIDTH = 150;

type Doc = PDFKit.PDFDocument;

const contentWidth = (doc: Doc) => doc.page.width - 2 * MARGIN;
const bottom = (doc: Doc) => doc.page.height - MARGIN;

/** Starts a new page when `height` does not fit below the cursor. */
function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

function heading(doc: Doc, title: string): void {
  ensureRoom(doc, 40);
  doc
    .moveDown(0.6)
    .font(BOLD)
    .fontSize(10)
    .text(title, MARGIN, doc.y, { width: contentWidth(doc) });
  const y = doc.y + 1;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + contentWidth(doc), y)
    .lineWidth(0.5)
    .stroke();
  doc.y = y + 3;
}

/** The height of a label-and-value row: the taller of the two, as either may wrap. */
export function fieldHeight(doc: Doc, f: Field): number {
  doc.font(FONT).fontSize(TEXT);
  const value = doc.heightOfString(f.value || ' ', { width: contentWidth(doc) - LABEL_WIDTH });
  const label = doc.heightOfString(`${f.label}:`, { width: LABEL_WIDTH - 6 });
  return Math.max(value, label, TEXT + 3) + PAD;
}

/** Label and value on one line; an empty value is a dotted line to fill by hand. */
function fields(doc: Doc, list: Field[]): void {
  const valueWidth = contentWidth(doc) - LABEL_WIDTH;
  for (const f of list) {
    const h = fieldHeight(doc, f);
    ensureRoom(doc, h);
    const y = doc.y;
    doc.fillColor('#444').text(`${f.label}:`, MARGIN, y, { width: LABEL_WIDTH - 6 });
    doc.fillColor('black');
    if (f.value) doc.text(f.value, MARGIN + LABEL_WIDTH, y, { width: valueWidth });
    else {
      const lineY = y + TEXT + 1;
      doc
        .moveTo(MARGIN + LABEL_WIDTH, lineY)
        .lineTo(MARGIN + contentWidth(doc), lineY)
        .dash(1, { space: 2 })
        .stroke()
        .undash();
    }
    doc.y = y + h;
  }
}

/** A table header cell as drawn: its font size and its lines (docs/decisions/0206). */
export interface HeaderCell {
  fontSize: number;
  lines: string[];
}

/**
 * A header broken into lines only between words, greedily, for a column `width` wide. pdfkit would break a
 * word wider than the column inside it ("Godzi/n"), and breaks after a slash ("Ś/ O/K"): so the lines are
 * ours, and a word wider than the column shrinks the font of that header (not below MIN_HEAD) until it fits.
 */
export function headerCell(doc: Doc, text: string, width: number): HeaderCell {
  const inner = width - 2 * PAD;
  const words = text.split(/\s+/).filter(Boolean);
  doc.font(BOLD).fontSize(SMALL);
  const widest = Math.max(0, ...words.map((w) => doc.widthOfString(w)));
  // Widths scale with the size; rounded down to a tenth so the word fits after rounding too.
  const fontSize = widest > inner ? Math.max(MIN_HEAD, Math.floor(((SMALL * inner) / widest) * 10) / 10) : SMALL;
  doc.fontSize(fontSize);
  const lines: string[] = [];
  for (const word of words) {
    const joined = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && doc.widthOfString(joined) <= inner) lines[lines.length - 1] = joined;
    else lines.push(word);
  }
  return { fontSize, lines };
}

/** The columns' left edges and widths: the relative widths spread over the content width. */
export function columns(doc: Doc, widths: readonly number[]): { xs: number[]; ws: number[] } {
  const sum = widths.reduce((a, b) => a + b, 0);
  const ws = widths.map((w) => (w / sum) * contentWidth(doc));
  const xs = ws.map((_, i) => MARGIN + ws.slice(0, i).reduce((a, b) => a + b, 0));
  return { xs, ws };
}

/** The cells' texts with their font and size, and the row's height (the tallest cell). */
function rowCells(doc: Doc, cells: string[], ws: number[], head: boolean) {
  const drawn = cells.map((c, i) => {
    if (!head) return { text: c, font: FONT, size: SMALL };
    const cell = headerCell(doc, c, ws[i]);
    return { text: cell.lines.join('\n'), font: BOLD, size: cell.fontSize };
  });
  const h =
    Math.max(
      ...drawn.map((d, i) =>
        doc
          .font(d.font)
          .fontSize(d.size)
          .heightOfString(d.text || ' ', { width: ws[i] - 2 * PAD }),
      ),
    ) +
    2 * PAD;
  return { drawn, h };
}

function tableRow(doc: Doc, cells: string[], xs: number[], ws: number[], head: boolean): void {
  const { drawn, h } = rowCells(doc, cells, ws, head);
  ensureRoom(doc, h);
  const y = doc.y;
  if (head) doc.rect(MARGIN, y, contentWidth(doc), h).fill('#eeeeee').fillColor('black');
  drawn.forEach((d, i) =>
    doc
      .font(d.font)
      .fontSize(d.size)
      .text(d.text, xs[i] + PAD, y + PAD, { width: ws[i] - 2 * PAD }),
  );
  doc
    .moveTo(MARGIN, y + h)
    .lineTo(MARGIN + contentWidth(doc), y + h)
    .lineWidth(0.3)
    .stroke();
  doc.y = y + h;
}

function table(doc: Doc, t: Table): void {
  const { xs, ws } = columns(doc, t.widths);
  tableRow(doc, t.head, xs, ws, true);
  // No rows: one empty row to fill by hand.
  for (const row of t.rows.length ? t.rows : [t.head.map(() => '')]) tableRow(doc, row, xs, ws, false);
}

function section(doc: Doc, s: Section): void {
  heading(doc, s.title);
  if (s.fields) fields(doc, s.fields);
  if (s.table) table(doc, s.table);
}

function signatures(doc: Doc, labels: string[]): void {
  doc.moveDown(1);
  const w = contentWidth(doc) / labels.length;
  const y = doc.y + 24;
  labels.forEach((label, i) => {
    const x = MARGIN + i * w;
    doc
      .moveTo(x + 6, y)
      .lineTo(x + w - 6, y)
      .lineWidth(0.5)
      .stroke();
    doc
      .font(FONT)
      .fontSize(SMALL)
      .text(label, x + 6, y + 3, { width: w - 12, align: 'center' });
  });
}

/** The PDF's bytes. */
export function renderPdf(printed: PrintedDocument, info: { title: string; createdAt: Date }): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: info.title, Producer: 'travel-expense', CreationDate: info.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc
    .font(BOLD)
    .fontSize(14)
    .text(printed.title, MARGIN, MARGIN, { width: contentWidth(doc) });
  doc
    .font(FONT)
    .fontSize(SMALL)
    .fillColor('#444')
    .text(printed.basis, { width: contentWidth(doc) })
    .fillColor('black');
  for (const s of printed.sections) section(doc, s);
  // The place-and-date line stays on the page of the signatures it belongs to.
  ensureRoom(doc, 80);
  fields(doc.moveDown(1), [{ label: printed.issuedLine, value: '' }]);
  signatures(doc, printed.signatures);
  doc.end();
  return done;
}
