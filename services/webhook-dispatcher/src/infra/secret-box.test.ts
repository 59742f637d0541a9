import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const KEY = randomBytes(32).toString('base64');
const OTHER_KEY = randomBytes(32).toString('base64');
const SECRET = 'whsec_4f1c0f2b9d3e4a6b8c7d5e3f1a2b3c4d';

const parts = (sealed: string) => sealed.split('.') as [string, string, string, string];
const b64url = (s: string) => Buffer.from(s, 'base64url');

/** Flips one bit of a base64url part, keeping it valid base64url. */
function flipBit(part: string, index = 0): string {
  const bytes = b64url(part);
  bytes[index] = bytes[index]! ^ 0x01;
  return bytes.toString('base64url');
}

describe('SecretBox', () => {
  const box = new SecretBox(KEY);

  describe('seal / open', () => {
    it.each([
      ['a signing secret', SECRET],
      ['an empty string', ''],
      ['one character', 'x'],
      ['unicode', 'žćčšđ – ključ 🔑'],
      ['a long value', 'a'.repeat(10_000)],
      ['dots and base64 characters', 'a.b.c-_+/='],
    ])('round-trips %s', (_name, plain) => {
      expect(box.open(box.seal(plain))).toBe(plain);
    });

    it('opens with another instance built from the same key', () => {
      expect(new SecretBox(KEY).open(box.seal(SECRET))).toBe(SECRET);
    });

    it('has the format v1.<iv 12 bytes>.<tag 16 bytes>.<ciphertext>, base64url', () => {
      const sealed = box.seal(SECRET);
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      const [, iv, tag, ct] = parts(sealed);
      expect(b64url(iv)).toHaveLength(12);
      expect(b64url(tag)).toHaveLength(16);
      expect(b64url(ct)).toHaveLength(Buffer.byteLength(SECRET, 'utf8'));
    });

    it('does not contain the plain text', () => {
      const sealed = box.seal(SECRET);
      expect(sealed).not.toContain(SECRET);
      expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64url'));
    });

    it('gives a different result each time (fresh IV), all of which open', () => {
      const sealed = Array.from({ length: 20 }, () => box.seal(SECRET));
      expect(new Set(sealed).size).toBe(20);
      expect(new Set(sealed.map((s) => parts(s)[1])).size).toBe(20);
      for (const s of sealed) expect(box.open(s)).toBe(SECRET);
    });
  });

  describe('tamper detection', () => {
    const sealed = box.seal(SECRET);
    const [version, iv, tag, ct] = parts(sealed);

    it.each([
      ['the ciphertext', () => `${version}.${iv}.${tag}.${flipBit(ct)}`],
      ['the last ciphertext byte', () => `${version}.${iv}.${tag}.${flipBit(ct, b64url(ct).length - 1)}`],
      ['the tag', () => `${version}.${iv}.${flipBit(tag)}.${ct}`],
      ['the IV', () => `${version}.${flipBit(iv)}.${tag}.${ct}`],
      ['a shortened ciphertext', () => `${version}.${iv}.${tag}.${b64url(ct).subarray(1).toString('base64url')}`],
      [
        'a tag truncated to 4 bytes',
        () => `${version}.${iv}.${b64url(tag).subarray(0, 4).toString('base64url')}.${ct}`,
      ],
      [
        'a tag truncated to 12 bytes',
        () => `${version}.${iv}.${b64url(tag).subarray(0, 12).toString('base64url')}.${ct}`,
      ],
      ['a tag from another sealing', () => `${version}.${iv}.${parts(box.seal(SECRET))[2]}.${ct}`],
    ])('refuses a change to %s', (_name, forge) => {
      expect(() => box.open(forge())).toThrow();
    });

    it('refuses a changed copy of a value it has opened before (what it keeps is by the exact sealed text)', () => {
      expect(box.open(sealed)).toBe(SECRET);
      expect(() => box.open(`${version}.${iv}.${flipBit(tag)}.${ct}`)).toThrow();
      expect(box.open(sealed)).toBe(SECRET);
    });

    it('refuses a value sealed under another key', () => {
      expect(() => box.open(new SecretBox(OTHER_KEY).seal(SECRET))).toThrow();
    });

    it('refuses to open with another key', () => {
      expect(() => new SecretBox(OTHER_KEY).open(sealed)).toThrow();
    });
  });

  describe('malformed input', () => {
    const sealed = box.seal(SECRET);
    const [, iv, tag, ct] = parts(sealed);

    it.each([
      ['an empty string', ''],
      ['the plain secret', SECRET],
      ['an unknown version', `v2.${iv}.${tag}.${ct}`],
      ['no version', `${iv}.${tag}.${ct}`],
      ['a missing tag', `v1.${iv}..${ct}`],
      ['a missing ciphertext', `v1.${iv}.${tag}.`],
      ['a missing IV', `v1..${tag}.${ct}`],
    ])('refuses %s', (_name, value) => {
      expect(() => box.open(value)).toThrow();
    });
  });

  describe('key', () => {
    it.each([
      ['empty', ''],
      ['16 bytes', randomBytes(16).toString('base64')],
      ['31 bytes', randomBytes(31).toString('base64')],
      ['33 bytes', randomBytes(33).toString('base64')],
      ['64 bytes', randomBytes(64).toString('base64')],
      ['not base64 at all', 'this is not a key'],
    ])('refuses a key that is %s', (_name, key) => {
      expect(() => new SecretBox(key)).toThrow('WEBHOOK_SECRET_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
    });

    it('accepts a 32-byte key in base64', () => {
      expect(() => new SecretBox(randomBytes(32).toString('base64'))).not.toThrow();
    });
  });
});
