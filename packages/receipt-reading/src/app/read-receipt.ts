import type { Market } from '@travel/regulations';
import { extractFields } from '../domain/extract-fields';
import { parseFiscalCode, type FiscalCode } from '../domain/fiscal-codes';
import { prepareImage, rotate } from '../infra/image';
import type { OcrEngine, OcrResult } from '../infra/ocr-engine';
import { pdfFirstPagePng, pdfText } from '../infra/pdf';
import { decodeQrCodes } from '../infra/qr';
import type { ReadInput, ReceiptReading } from '../types';
import { sniff } from './sniff';

/** Mean word confidence from which OCR output is taken as text the right way up (tesseract's 0..100). */
const READS = 60;
/** Below this in every orientation, what the OCR saw is not text. */
const NO_TEXT = 40;

export interface ReadOptions {
  signal?: AbortSignal;
}

/** CPU seconds spent in a sidecar engine (not counted in this process's or its children's times). */
export type TimedReading = ReceiptReading & { sidecarCpuSeconds: number };

/**
 * Reads one receipt with the given OCR engine. Bad input is an Unreadable reading with a reason; only an
 * engine failure a retry could fix (crash, time-out, abort) throws, as ReadingEngineError.
 */
export async function readReceiptWith(
  engine: OcrEngine,
  input: ReadInput,
  options: ReadOptions = {},
): Promise<TimedReading> {
  const name = await engine.name();
  const unreadable = (reason: string, lines: string[] = []): TimedReading => ({
    state: 'Unreadable',
    reason,
    engine: name,
    fields: {},
    lines,
    sidecarCpuSeconds: 0,
  });
  const { bytes, market } = input;
  if (bytes.length === 0) return unreadable('empty file');
  const kind = sniff(bytes);
  if (!kind) return unreadable('not an image or PDF');

  let image = bytes;
  if (kind === 'pdf') {
    const text = await pdfText(bytes, options.signal);
    if (!text) return unreadable('PDF cannot be opened');
    if (text.filter((l) => /\p{L}{3}/u.test(l)).length >= 3) {
      return receiptOrNot(name, text, extractFields(text, 'pdf-text', market), undefined, 0);
    }
    const page = await pdfFirstPagePng(bytes, options.signal);
    if (!page) return unreadable('PDF cannot be opened');
    image = page;
  }

  const prepared = await prepareImage(image);
  if (!prepared.ok) return unreadable(prepared.reason);
  const fiscal = (await decodeQrCodes(prepared.qr, options.signal)).map(parseFiscalCode).find((f) => f !== undefined);
  const ocr = await bestOrientation(engine, prepared.ocr, fiscal?.market ?? market, options.signal);
  if (ocr.quality < NO_TEXT && !fiscal) return { ...unreadable('no text found'), sidecarCpuSeconds: ocr.cpu };
  const lines = ocr.quality < NO_TEXT ? [] : ocr.lines;
  return receiptOrNot(name, lines, extractFields(lines, 'ocr', market, fiscal), fiscal, ocr.cpu);
}

/** Upright first; an upside-down or sideways photo reads poorly, so the other three turns are tried. */
async function bestOrientation(
  engine: OcrEngine,
  png: Buffer,
  market: Market | undefined,
  signal?: AbortSignal,
): Promise<OcrResult & { cpu: number }> {
  let best = await engine.recognise(png, market, signal);
  let cpu = best.cpuSeconds ?? 0;
  for (const turn of [180, 90, 270] as const) {
    if (best.quality >= READS) break;
    const r = await engine.recognise(await rotate(png, turn), market, signal);
    cpu += r.cpuSeconds ?? 0;
    if (r.quality > best.quality) best = r;
  }
  return { ...best, cpu };
}

/** Text that has no total, date, tax id or fiscal code is not a receipt (a letter, a sign, a menu). */
function receiptOrNot(
  engine: string,
  lines: string[],
  fields: ReceiptReading['fields'],
  fiscal: FiscalCode | undefined,
  cpu: number,
): TimedReading {
  const evidence =
    fiscal || fields.date || fields.merchantTaxId || (fields.totalAmount && fields.totalAmount.confidence > 0.5);
  if (!evidence)
    return { state: 'Unreadable', reason: 'not a receipt', engine, fields: {}, lines, sidecarCpuSeconds: cpu };
  return { state: 'Read', engine, fields, lines, sidecarCpuSeconds: cpu };
}
