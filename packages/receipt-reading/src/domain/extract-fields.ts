import type { Market } from '@travel/regulations';
import type { Proposal, ReadingSource, ReceiptFields, TaxIdValue, VatLine } from '../types';
import { MARKET_CURRENCY, findCurrency } from './currency';
import { findDate, findTime } from './dates';
import type { FiscalCode } from './fiscal-codes';
import { findMerchantName } from './merchant';
import { SCHEME_PREFERENCE, findBareTaxIds, findTaxIds, validSiTaxNumber, type FoundTaxId } from './tax-ids';
import { findTotal } from './total';
import { parseVatLine } from './vat';

// How much each kind of evidence is worth (the reading's confidence, 0..1). A PDF's own text is exact text,
// so the same evidence counts more there than in OCR output.
const WEIGHT = {
  keyword: { ocr: 0.85, 'pdf-text': 0.95 },
  labelledId: { ocr: 0.9, 'pdf-text': 0.98 },
  bareId: { ocr: 0.6, 'pdf-text': 0.7 },
  date: { ocr: 0.8, 'pdf-text': 0.95 },
  merchant: { ocr: 0.5, 'pdf-text': 0.7 },
  vat: { ocr: 0.7, 'pdf-text': 0.9 },
  currencyOnTotal: { ocr: 0.9, 'pdf-text': 0.95 },
  currencyElsewhere: { ocr: 0.7, 'pdf-text': 0.8 },
  largest: 0.3,
  marketCurrency: 0.3,
} as const;

type TextSource = Exclude<ReadingSource, 'fiscal-qr'>;

const propose = <T>(value: T, confidence: number, source: ReadingSource): Proposal<T> => ({
  value,
  confidence,
  source,
});

/** Every field a receipt's text lines (and its fiscal code, if one was decoded) support. Pure. */
export function extractFields(
  lines: readonly string[],
  source: TextSource,
  market?: Market,
  fiscal?: FiscalCode,
): ReceiptFields {
  const fields: ReceiptFields = {};
  const ids = lines.flatMap((l) => findTaxIds(l, market));
  // A receipt from abroad: its labelled ids tell its market better than the company's.
  const printedMarket = marketOf(ids) ?? fiscal?.market ?? market;

  const total = findTotal(lines);
  if (fiscal?.totalAmount) fields.totalAmount = propose(fiscal.totalAmount, 1, 'fiscal-qr');
  else if (total) {
    fields.totalAmount = propose(
      total.value,
      total.evidence === 'keyword' ? WEIGHT.keyword[source] : WEIGHT.largest,
      source,
    );
  }

  const totalLine = lines.find((l) => total && l.includes(total.value.replace('.', ',')));
  const onTotal = totalLine ? findCurrency(totalLine) : undefined;
  const anywhere = lines.map(findCurrency).find((c) => c !== undefined);
  if (onTotal) fields.currencyCode = propose(onTotal, WEIGHT.currencyOnTotal[source], source);
  else if (anywhere) fields.currencyCode = propose(anywhere, WEIGHT.currencyElsewhere[source], source);
  else if (fiscal) fields.currencyCode = propose(MARKET_CURRENCY[fiscal.market], 1, 'fiscal-qr');
  else if (printedMarket) fields.currencyCode = propose(MARKET_CURRENCY[printedMarket], WEIGHT.marketCurrency, source);

  if (fiscal) {
    fields.date = propose(fiscal.date, 1, 'fiscal-qr');
    fields.time = propose(fiscal.time, 1, 'fiscal-qr');
  } else {
    for (const line of lines) {
      const d = findDate(line);
      if (!d) continue;
      fields.date = propose(d.value, WEIGHT.date[source], source);
      const t = findTime(line, d.end);
      if (t) fields.time = propose(t, WEIGHT.date[source], source);
      break;
    }
    if (!fields.time) {
      const t = lines.map((l) => findTime(l)).find((x) => x !== undefined);
      if (t) fields.time = propose(t, WEIGHT.date[source] / 2, source);
    }
  }

  const name = findMerchantName(lines);
  if (name) fields.merchantName = propose(name, WEIGHT.merchant[source], source);

  if (fiscal?.taxNumber && validSiTaxNumber(fiscal.taxNumber)) {
    fields.merchantTaxId = propose<TaxIdValue>({ scheme: 'SI-DAVCNA', value: fiscal.taxNumber }, 1, 'fiscal-qr');
  } else {
    const best =
      bestId(ids) ?? (printedMarket ? bestId(lines.flatMap((l) => findBareTaxIds(l, printedMarket))) : undefined);
    if (best) {
      fields.merchantTaxId = propose(
        best.id,
        best.labelled ? WEIGHT.labelledId[source] : WEIGHT.bareId[source],
        source,
      );
    }
  }

  const vat: VatLine[] = [];
  for (const line of lines) {
    const v = parseVatLine(line, printedMarket);
    if (v && !vat.some((x) => x.rate === v.rate)) vat.push(v);
  }
  if (vat.length > 0) fields.vat = propose(vat, WEIGHT.vat[source], source);
  return fields;
}

function bestId(ids: readonly FoundTaxId[]): FoundTaxId | undefined {
  const rank = (f: FoundTaxId) => (f.labelled ? 0 : 100) + SCHEME_PREFERENCE.indexOf(f.id.scheme);
  return [...ids].sort((a, b) => rank(a) - rank(b))[0];
}

function marketOf(ids: readonly FoundTaxId[]): Market | undefined {
  const s = bestId(ids.filter((f) => f.labelled))?.id.scheme;
  return s ? (s.slice(0, 2) as Market) : undefined;
}
