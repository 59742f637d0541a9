// The exports' two file formats (docs/decisions/0142): CSV (RFC 4180, UTF-8, comma, decimal point, the
// money as its decimal text) and XLSX through exceljs (MIT). A sheet is columns and rows of text; money
// columns become numeric cells with a two-decimal format, everything else text.
import ExcelJS from 'exceljs';

export interface Column {
  key: string;
  header: string;
  /** Decimal text written as a number with the format `#,##0.00` in XLSX (CSV keeps the text). */
  money?: boolean;
}

export interface Sheet {
  name: string;
  columns: readonly Column[];
  rows: readonly Record<string, string>[];
}

export type ExportFormat = 'csv' | 'xlsx';

export const CSV_TYPE = 'text/csv; charset=utf-8';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const csvField = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A sheet as CSV: a header line, then one line per row (CRLF, as RFC 4180 says). */
export function toCsv(sheet: Sheet): string {
  const lines = [sheet.columns.map((c) => csvField(c.header))];
  for (const row of sheet.rows) lines.push(sheet.columns.map((c) => csvField(row[c.key] ?? '')));
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n';
}

/**
 * Sheets as one XLSX workbook. A money cell is the JavaScript number of its decimal text: amounts to the
 * cent below 2^53 / 100 read back to the same text (the shortest round-trip representation), which the
 * tests check on what they read back; the format shows the two decimals.
 */
export async function toXlsx(sheets: readonly Sheet[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = book.addWorksheet(sheet.name);
    ws.columns = sheet.columns.map((c) => ({
      header: c.header,
      key: c.key,
      width: Math.max(12, c.header.length + 2),
      style: c.money ? { numFmt: '#,##0.00' } : {},
    }));
    for (const row of sheet.rows)
      ws.addRow(
        Object.fromEntries(sheet.columns.map((c) => [c.key, c.money ? Number(row[c.key]) : (row[c.key] ?? '')])),
      );
    ws.getRow(1).font = { bold: true };
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A cell as read back: text, a number (money cells), or null when empty. */
export type CellValue = string | number | null;

/** The sheets of an XLSX workbook as rows of cell values keyed by the header row (the exports' readers, tests). */
export async function readXlsx(bytes: Buffer): Promise<Record<string, Record<string, CellValue>[]>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheets: Record<string, Record<string, CellValue>[]> = {};
  book.eachSheet((ws) => {
    const headers = (ws.getRow(1).values as CellValue[]).slice(1).map(String);
    const rows: Record<string, CellValue>[] = [];
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const values = (row.values as CellValue[]).slice(1);
      rows.push(Object.fromEntries(headers.map((h, i) => [h, values[i] ?? null])));
    });
    sheets[ws.name] = rows;
  });
  return sheets;
}
