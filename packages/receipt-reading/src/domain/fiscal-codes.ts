// Fiscal codes printed on receipts, read exactly (decision 0199 has the sources).
//
// Croatia (Pravilnik o fiskalizaciji u prometu gotovinom, čl. 18.a-18.c): a URL to the tax administration's
// check page with the JIR (or, before it arrives, the ZKI), the issue time and the total:
//   https://porezna.gov.hr/rn?jir=<JIR>&datv=YYYYMMDD_HHMM&izn=<total in cents, no separator>
// Some issuers print izn with a decimal separator; both are read.
//
// Slovenia (FURS, davčno potrjevanje računov, technical specification): 60 digits: the ZOI as 39 decimal
// digits, the issuer's 8-digit tax number, the issue time YYMMDDhhmmss, and a check digit (the sum of the
// 59 digits mod 10). It carries no amount.

export interface FiscalCode {
  market: 'HR' | 'SI';
  totalAmount?: string;
  date: string;
  time: string;
  taxNumber?: string;
}

export function parseFiscalCode(text: string): FiscalCode | undefined {
  return parseCroatian(text.trim()) ?? parseSlovenian(text.trim());
}

function parseCroatian(text: string): FiscalCode | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (!/(^|\.)porezna\.gov\.hr$/i.test(url.hostname) || !/^\/rn\/?$/.test(url.pathname)) return undefined;
  const q = url.searchParams;
  if (!q.get('jir') && !q.get('zki')) return undefined;
  const datv = /^(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})$/.exec(q.get('datv') ?? '');
  const izn = q.get('izn') ?? '';
  if (!datv) return undefined;
  let total: string | undefined;
  const separated = /^(-?)0*(\d+)[.,](\d{2})$/.exec(izn);
  if (separated) total = `${separated[1]}${separated[2]}.${separated[3]}`;
  else if (/^-?\d+$/.test(izn)) {
    const neg = izn.startsWith('-');
    const cents = izn.replace('-', '').padStart(3, '0');
    total = `${neg ? '-' : ''}${cents.slice(0, -2).replace(/^0+(?=\d)/, '')}.${cents.slice(-2)}`;
  }
  if (!total) return undefined;
  const [, y, mo, d, h, mi] = datv;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59) {
    return undefined;
  }
  return { market: 'HR', totalAmount: total, date: `${y}-${mo}-${d}`, time: `${h}:${mi}` };
}

function parseSlovenian(text: string): FiscalCode | undefined {
  if (!/^\d{60}$/.test(text)) return undefined;
  const sum = [...text.slice(0, 59)].reduce((acc, c) => acc + Number(c), 0);
  if (sum % 10 !== Number(text[59])) return undefined;
  const t = text.slice(47, 59);
  const [yy, mo, d, h, mi, s] = [0, 2, 4, 6, 8, 10].map((i) => t.slice(i, i + 2));
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23) return undefined;
  return { market: 'SI', date: `20${yy}-${mo}-${d}`, time: `${h}:${mi}:${s}`, taxNumber: text.slice(39, 47) };
}
