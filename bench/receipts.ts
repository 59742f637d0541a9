// Receipt-reading benchmark (issue 37 §2, decision 0198): field accuracy (exact match) per field and per
// market, and CPU per receipt, for each OCR engine measured, on the generated labelled set:
//
//   npm run bench -- receipts [--engines tesseract,rapidocr] [--limit N] [--set .local/receipts/set]
//
// The set is made first if missing (packages/receipt-reading/scripts/generate.py, seed 37: 220 receipts, 44
// per market, and 8 non-receipts). CPU per receipt counts this process (decoding, the QR, extraction), its
// waited-for children (tesseract, zbarimg, poppler: /proc/self/stat cutime + cstime) and the PP-OCR
// sidecar's own process time. The ceiling beside each accuracy is the same extraction on exact text (the
// text PDFs of the set): what a perfect OCR would give. One receipt at a time; engines one thread each.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readReceiptWith } from '../packages/receipt-reading/src/app/read-receipt';
import type { OcrEngine } from '../packages/receipt-reading/src/infra/ocr-engine';
import { rapidOcr } from '../packages/receipt-reading/src/infra/rapidocr';
import { tesseract } from '../packages/receipt-reading/src/infra/tesseract';
import type { ReceiptReading } from '../packages/receipt-reading/src/types';
import type { Market } from '../packages/regulations/src';

const ROOT = join(__dirname, '..');
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const SET = join(ROOT, option('set') ?? '.local/receipts/set');
const ENGINES = (option('engines') ?? 'tesseract,rapidocr').split(',');
const LIMIT = Number(option('limit') ?? Infinity);
const FIELDS = ['totalAmount', 'date', 'currencyCode', 'merchantTaxId', 'time', 'merchantName', 'vat'] as const;
const TARGET: Partial<Record<(typeof FIELDS)[number], number>> = {
  totalAmount: 0.9,
  date: 0.9,
  currencyCode: 0.95,
  merchantTaxId: 0.8,
};
const MARKETS: Market[] = ['HR', 'SI', 'SK', 'CZ', 'PL'];

interface Truth {
  market: Market;
  state: 'Read' | 'Unreadable';
  kind: string;
  file: string;
  fields: Record<string, unknown>;
}

function childCpuSeconds(): number {
  // Fields 16 and 17 of /proc/self/stat (after the command in parentheses): cutime and cstime, in ticks.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[13]) + Number(rest[14])) / 100;
}

function ensureSet() {
  if (existsSync(join(SET, 'manifest.json'))) return;
  console.log(`[bench] generating the labelled set into ${SET}`);
  execFileSync(
    join(ROOT, '.tools/receipts-venv/bin/python'),
    [join(ROOT, 'packages/receipt-reading/scripts/generate.py'), SET],
    {
      stdio: 'inherit',
    },
  );
}

const pct = (a: number[], p: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const f = (x: number) => `${(100 * x).toFixed(1)} %`;

async function measure(engine: OcrEngine, ids: string[]) {
  const rows: { truth: Truth; reading: ReceiptReading; cpu: number }[] = [];
  for (const id of ids) {
    const truth = JSON.parse(readFileSync(join(SET, `${id}.json`), 'utf8')) as Truth;
    const bytes = readFileSync(join(SET, truth.file));
    const own = process.cpuUsage();
    const kids = childCpuSeconds();
    const reading = await readReceiptWith(engine, {
      bytes,
      contentType: truth.file.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg',
      market: truth.market,
    });
    const d = process.cpuUsage(own);
    const cpu = (d.user + d.system) / 1e6 + (childCpuSeconds() - kids) + reading.sidecarCpuSeconds;
    rows.push({ truth, reading, cpu });
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  return rows;
}

function score(rows: { truth: Truth; reading: ReceiptReading }[], field: (typeof FIELDS)[number]) {
  const receipts = rows.filter((r) => r.truth.state === 'Read');
  const hits = receipts.filter((r) => {
    const got = r.reading.fields[field]?.value;
    const want = r.truth.fields[field];
    if (field === 'vat' && Array.isArray(got) && Array.isArray(want)) {
      const key = (v: { rate: string }) => v.rate;
      return isDeepStrictEqual(
        [...got].sort((a, b) => key(a).localeCompare(key(b))),
        [...(want as { rate: string }[])].sort((a, b) => key(a).localeCompare(key(b))),
      );
    }
    return isDeepStrictEqual(got, want);
  });
  return receipts.length ? hits.length / receipts.length : NaN;
}

async function main() {
  ensureSet();
  const manifest = JSON.parse(readFileSync(join(SET, 'manifest.json'), 'utf8')) as { ids: string[]; seed: number };
  // --limit N: an even spread over the markets and the non-receipts, not the first N.
  const step = Number.isFinite(LIMIT) ? Math.max(1, Math.floor(manifest.ids.length / LIMIT)) : 1;
  const ids = manifest.ids.filter((_, i) => i % step === 0).slice(0, LIMIT);
  const out: string[] = [];
  const results: Record<string, unknown> = {};
  for (const name of ENGINES) {
    const engine = name === 'rapidocr' ? rapidOcr() : tesseract;
    const label = await engine.name();
    console.log(`[bench] ${label}: ${ids.length} samples`);
    const rows = await measure(engine, ids);
    if ('close' in engine) (engine as { close(): void }).close();
    const exact = rows.filter((r) => r.truth.kind === 'text-pdf');
    const photos = rows.filter((r) => r.truth.state === 'Read');
    const cpu = photos.map((r) => r.cpu);
    const nonReceipts = rows.filter((r) => r.truth.state === 'Unreadable');
    out.push(`#### ${label}`, '', `${photos.length} receipts, ${nonReceipts.length} non-receipts.`, '');
    out.push(
      '| field | all markets | HR | SI | SK | CZ | PL | ceiling (exact text) | target |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const field of FIELDS) {
      const per = MARKETS.map((m) =>
        f(
          score(
            rows.filter((r) => r.truth.market === m && r.truth.state === 'Read'),
            field,
          ),
        ),
      );
      const all = score(rows, field);
      const t = TARGET[field];
      out.push(
        `| ${field} | ${f(all)}${t ? (all >= t ? ' ✓' : ' ✗') : ''} | ${per.join(' | ')} | ${f(score(exact, field))} | ${t ? `≥ ${f(t)}` : '—'} |`,
      );
    }
    const unreadableOk = nonReceipts.filter((r) => r.reading.state === 'Unreadable').length;
    const falseUnreadable = photos.filter((r) => r.reading.state === 'Unreadable').length;
    out.push(
      '',
      `Non-receipts read as Unreadable: ${unreadableOk} of ${nonReceipts.length}; receipts wrongly Unreadable: ${falseUnreadable} of ${photos.length}.`,
    );
    const med = pct(cpu, 0.5);
    const p90 = pct(cpu, 0.9);
    out.push(
      `CPU per receipt: median ${med.toFixed(2)} s, p90 ${p90.toFixed(2)} s, max ${pct(cpu, 1).toFixed(2)} s (target < 2 s: ${p90 < 2 ? 'met at p90' : med < 2 ? 'met at the median, not at p90' : 'missed'}).`,
      '',
    );
    results[label] = Object.fromEntries(FIELDS.map((k) => [k, score(rows, k)]));
    const misses = photos
      .filter((r) => !isDeepStrictEqual(r.reading.fields.totalAmount?.value, r.truth.fields.totalAmount))
      .map((r) => r.truth.file);
    results[`${label} total misses`] = misses;
  }
  console.log(out.join('\n'));
  mkdirSync(join(ROOT, '.local/bench'), { recursive: true });
  writeFileSync(join(ROOT, '.local/bench/receipts.json'), JSON.stringify(results, null, 1));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
