import { run } from './child';

/**
 * Every QR code's text in a PNG, decoded by zbarimg (Debian zbar-tools) in a child process: QR decoding is
 * CPU work that must not run on the caller's event loop. Nothing found is an empty list, not an error.
 */
export async function decodeQrCodes(png: Buffer, signal?: AbortSignal): Promise<string[]> {
  const r = await run('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', '-'], png, {
    timeoutMs: 10_000,
    signal,
  });
  // zbarimg exits 4 when it found no code.
  if (r.code !== 0) return [];
  return r.stdout
    .toString('utf8')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
}
