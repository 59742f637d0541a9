// The engine (@travel/receipt-reading) as this context's ReceiptReader. It does its heavy work off the
// event loop and answers Unreadable (with a reason) for a file it cannot read; it throws only for a
// failure a retry could fix (a crash, the time-out below).
import { readReceipt } from '@travel/receipt-reading';
import type { ReceiptReader } from '../app/ports';

export const engineReader: ReceiptReader = {
  async read(input, signal) {
    const r = await readReceipt(input, { signal });
    return { state: r.state, reason: r.reason, engine: r.engine, fields: r.fields, lines: r.lines };
  },
};
