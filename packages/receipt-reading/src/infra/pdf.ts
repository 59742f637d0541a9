import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './child';

// Poppler's tools (Debian poppler-utils) in child processes: a text PDF is read exactly from its text, a
// scanned one rendered to an image and read like a photo. Only the first page: a receipt is one page.

export async function pdfText(bytes: Buffer, signal?: AbortSignal): Promise<string[] | undefined> {
  const r = await run('pdftotext', ['-layout', '-f', '1', '-l', '1', '-enc', 'UTF-8', '-', '-'], bytes, {
    timeoutMs: 15_000,
    signal,
  });
  if (r.code !== 0) return undefined; // not a PDF poppler can open: the caller says so
  return r.stdout
    .toString('utf8')
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() !== '');
}

export async function pdfFirstPagePng(bytes: Buffer, signal?: AbortSignal): Promise<Buffer | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'receipt-pdf-'));
  try {
    await writeFile(join(dir, 'in.pdf'), bytes);
    // 200 dpi and at most 2400 px on the long side: enough for receipt print, bounded for any page size.
    const r = await run(
      'pdftoppm',
      [
        '-f',
        '1',
        '-l',
        '1',
        '-r',
        '200',
        '-scale-to',
        '2400',
        '-gray',
        '-png',
        '-singlefile',
        join(dir, 'in.pdf'),
        join(dir, 'page'),
      ],
      undefined,
      { timeoutMs: 20_000, signal },
    );
    if (r.code !== 0) return undefined;
    return await readFile(join(dir, 'page.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
