import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Market } from '@travel/regulations';
import { ReadingEngineError } from './child';
import type { OcrEngine, OcrResult } from './ocr-engine';

// PP-OCR as shipped inside the PyPI `rapidocr` wheel (its ONNX models), in a long-lived Python sidecar
// (scripts/rapidocr-sidecar.py) from the receipts venv: the bench's second candidate (decision 0198).
// One request at a time; the sidecar reports its own CPU seconds per image.
const PYTHON = process.env.RECEIPTS_PYTHON ?? join(__dirname, '../../../../.tools/receipts-venv/bin/python');
const SCRIPT = join(__dirname, '../../scripts/rapidocr-sidecar.py');

export function rapidOcr(): OcrEngine & { close(): void } {
  let child: ChildProcessWithoutNullStreams | undefined;
  let pending: ((line: string) => void) | undefined;
  let info = 'PP-OCR (rapidocr)';
  const start = () => {
    const c = spawn(PYTHON, [SCRIPT], { env: { ...process.env, OMP_NUM_THREADS: '1' } });
    createInterface({ input: c.stdout }).on('line', (l) => {
      const p = pending;
      pending = undefined;
      p?.(l);
    });
    c.stderr.on('data', () => undefined);
    c.on('close', () => {
      child = undefined;
      pending?.('{"error":"sidecar exited"}');
    });
    child = c;
    return c;
  };
  const ask = (req: object, signal?: AbortSignal) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const c = child ?? start();
      const onAbort = () => c.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      pending = (l) => {
        signal?.removeEventListener('abort', onAbort);
        const msg = JSON.parse(l) as Record<string, unknown>;
        if (msg.error) reject(new ReadingEngineError(`rapidocr: ${String(msg.error)}`));
        else resolve(msg);
      };
      c.stdin.write(`${JSON.stringify(req)}\n`);
    });
  return {
    async name() {
      const r = await ask({ op: 'version' });
      info = `PP-OCR (rapidocr ${String(r.version)})`;
      return info;
    },
    async recognise(png: Buffer, _market: Market | undefined, signal?: AbortSignal): Promise<OcrResult> {
      const r = await ask({ op: 'read', png: png.toString('base64') }, signal);
      return { lines: r.lines as string[], quality: Number(r.quality), cpuSeconds: Number(r.cpu) };
    },
    close() {
      child?.kill();
    },
  };
}
