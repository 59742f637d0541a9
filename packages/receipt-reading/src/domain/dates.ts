// Dates and times as the five markets print them: 29.11.2026. (HR), 29. 11. 2026 (SI), 29.11.2026 (SK,
// CZ), 2026-11-29 (PL, ISO), 29/11/2026; day first everywhere (no US month-first form in these markets).

const DMY = /(?<!\d)(\d{1,2})\s?[./-]\s?(\d{1,2})\s?[./-]\s?(\d{4}|\d{2})(?!\d)/;
const YMD = /(?<!\d)(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?!\d)/;
const TIME = /(?<![\d.,:])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?![\d:])/;

const pad = (n: number) => String(n).padStart(2, '0');

function valid(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days && y >= 2000 && y <= 2099;
}

/** The first valid date in a line as YYYY-MM-DD, and where it ends (a time usually follows it). */
export function findDate(line: string): { value: string; end: number } | undefined {
  const iso = YMD.exec(line);
  if (iso) {
    const [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (valid(y, m, d)) return { value: `${y}-${pad(m)}-${pad(d)}`, end: iso.index + iso[0].length };
  }
  const dmy = DMY.exec(line);
  if (dmy) {
    const y = dmy[3]!.length === 2 ? 2000 + Number(dmy[3]) : Number(dmy[3]);
    const [m, d] = [Number(dmy[2]), Number(dmy[1])];
    if (valid(y, m, d)) return { value: `${y}-${pad(m)}-${pad(d)}`, end: dmy.index + dmy[0].length };
  }
  return undefined;
}

/** A time of day, HH:MM or HH:MM:SS, in the part of a line after `from` (after the date on a date line). */
export function findTime(line: string, from = 0): string | undefined {
  const t = TIME.exec(line.slice(from));
  if (!t) return undefined;
  return `${pad(Number(t[1]))}:${t[2]}${t[3] ? `:${t[3]}` : ''}`;
}
