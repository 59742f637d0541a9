// @travel/receipt-reading: a receipt photo or PDF in, proposed fields out (issue 37, decisions 0198-0199).
import { readReceiptWith, type ReadOptions } from './app/read-receipt';
import { tesseract } from './infra/tesseract';
import type { ReadInput, ReceiptReading } from './types';

export type {
  Market,
  Proposal,
  ReadInput,
  ReadingSource,
  ReceiptFields,
  ReceiptReading,
  TaxIdScheme,
  TaxIdValue,
  VatLine,
} from './types';
export { ReadingEngineError } from './infra/child';

/**
 * Reads a receipt with the engine chosen by measurement (Tesseract, decision 0198). Never throws for bad
 * input (empty, not a receipt, upside down, unreadable, a PDF without text): Unreadable with a reason.
 * Throws ReadingEngineError only for a failure a retry could fix (a crashed child, a time-out, an abort).
 */
export async function readReceipt(input: ReadInput, options?: { signal?: AbortSignal }): Promise<ReceiptReading> {
  const { sidecarCpuSeconds: _cpu, ...reading } = await readReceiptWith(tesseract, input, options as ReadOptions);
  return reading;
}
