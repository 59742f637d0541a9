import type { Market } from '@travel/regulations';
import { ReadingEngineError, run } from './child';
import type { OcrEngine, OcrResult } from './ocr-engine';

// Tesseract (Debian tesseract-ocr with the five markets' languages and English), one child process per
// image, one thread (OMP_THREAD_LIMIT=1 in run()). --psm 6 (one uniform block of text) keeps a receipt's
// right-aligned amounts on their rows; psm 3 and 4 dropped them on the labelled set.
const LANGS: Readonly<Record<Market, string>> = { HR: 'hrv', SI: 'slv', SK: 'slk', CZ: 'ces', PL: 'pol' };

let version: Promise<string> | undefined;

export const tesseract: OcrEngine = {
  name() {
    version ??= run('tesseract', ['--version'], undefined, { timeoutMs: 10_000 }).then(
      (r) => /tesseract\s+v?([\d.]+)/i.exec(r.stdout.toString('utf8'))?.[0].replace(/\s+v?/, ' ') ?? 'tesseract',
    );
    return version;
  },
  async recognise(png: Buffer, market: Market | undefined, signal?: AbortSignal): Promise<OcrResult> {
    const lang = market ? `${LANGS[market]}+eng` : 'eng';
    const r = await run('tesseract', ['stdin', 'stdout', '-l', lang, '--psm', '6', 'tsv'], png, {
      timeoutMs: 30_000,
      signal,
    });
    if (r.code !== 0) throw new ReadingEngineError(`tesseract exited ${r.code}: ${r.stderr.slice(0, 200)}`);
    return parseTsv(r.stdout.toString('utf8'));
  },
};

/** Tesseract's TSV: one row per word with its block, paragraph and line; words joined into lines. */
export function parseTsv(tsv: string): OcrResult {
  const lines = new Map<string, string[]>();
  let confSum = 0;
  let words = 0;
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = c.slice(11).join('\t').trim();
    const conf = Number(c[10]);
    if (!text || conf < 0) continue;
    const key = `${c[2]}.${c[3]}.${c[4]}`;
    (lines.get(key) ?? lines.set(key, []).get(key)!).push(text);
    // Only words with letters or digits say whether the text reads: punctuation noise is confident too.
    if (/[\p{L}\d]{2,}/u.test(text)) {
      confSum += conf;
      words++;
    }
  }
  return { lines: [...lines.values()].map((w) => w.join(' ')), quality: words >= 3 ? confSum / words : 0 };
}
