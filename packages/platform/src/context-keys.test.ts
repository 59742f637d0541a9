import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import {
  generateSigningKey,
  keyText,
  keyringText,
  parseKeyring,
  privateKeyFromText,
  publicKeyFromText,
  publicKeyTextOf,
} from './context-keys';

describe('internal signing keys (0100, 0102)', () => {
  it('generates a pair whose texts are 32 bytes in padded base64, and whose keys sign and verify', () => {
    const pair = generateSigningKey();
    for (const text of [pair.privateKey, pair.publicKey]) {
      expect(text).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(text, 'base64')).toHaveLength(32);
    }
    const data = Buffer.from('payload');
    const signature = sign(null, data, privateKeyFromText(pair.privateKey));
    expect(verify(null, data, publicKeyFromText(pair.publicKey), signature)).toBe(true);
    expect(publicKeyTextOf(privateKeyFromText(pair.privateKey))).toBe(pair.publicKey);
    expect(keyText(privateKeyFromText(pair.privateKey))).toBe(pair.privateKey);
  });

  it('reads keys written by openssl (the recipe of docs/deployment.md)', () => {
    const pem = execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519']);
    const der = (args: string[]) => execFileSync('openssl', ['pkey', ...args, '-outform', 'DER'], { input: pem });
    const privateText = der([]).subarray(-32).toString('base64');
    const publicText = der(['-pubout']).subarray(-32).toString('base64');
    expect(publicKeyTextOf(privateKeyFromText(privateText))).toBe(publicText);
  });

  it.each([
    ['empty', ''],
    ['short', 'c2hvcnQ='],
    ['31 bytes', Buffer.alloc(31).toString('base64')],
    ['33 bytes', Buffer.alloc(33).toString('base64')],
    ['not base64', '!'.repeat(44)],
    ['base64 with padding inside', `${Buffer.alloc(16).toString('base64')}${Buffer.alloc(16).toString('base64')}`],
  ])('refuses a %s key, saying what a key is and never repeating the text', (_name, text) => {
    for (const read of [privateKeyFromText, publicKeyFromText])
      expect(() => read(text)).toThrow(`must be 32 bytes, base64-encoded (got ${text.length} characters)`);
  });

  it('refuses to write a key that is not Ed25519', () => {
    expect(() => keyText(generateKeyPairSync('x25519').publicKey)).toThrow('not an Ed25519 key');
  });

  it('reads a keyring it writes, an issuer listed twice keeping both keys', () => {
    const [a, b, c] = [generateSigningKey(), generateSigningKey(), generateSigningKey()];
    const keyring = parseKeyring(
      `${keyringText({ gateway: a.publicKey, 'reference-fx': b.publicKey })} gateway:${c.publicKey}`,
    );
    expect([...keyring.keys()]).toEqual(['gateway', 'reference-fx']);
    expect(keyring.get('gateway')!.map(keyText)).toEqual([a.publicKey, c.publicKey]);
    expect(parseKeyring('').size).toBe(0);
  });
});
