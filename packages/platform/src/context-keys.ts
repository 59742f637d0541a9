import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

// Ed25519 key material of the internal contexts (docs/decisions/0100, 0102). A key is written as its 32
// raw bytes in base64 (standard or url-safe, padding optional): short enough for an environment variable,
// and what `openssl genpkey -algorithm ed25519 -outform DER | tail -c 32 | base64` prints. A keyring names
// the issuers a process trusts: `gateway:<public key>,entries:<public key>`; an issuer may be listed
// twice while its key is rotated.

/** Raw bytes of an Ed25519 key (private seed or public point). */
export const ED25519_KEY_BYTES = 32;

// DER prefixes of a PKCS#8 private key and an SPKI public key for Ed25519 (RFC 8410): the raw 32 bytes follow.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** An issuer's name: a service name of the registry (lowercase words joined by `-`). */
const ISSUER = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Issuer name → its public keys (more than one while a key is rotated). */
export type Keyring = ReadonlyMap<string, readonly KeyObject[]>;

/** The bytes of a key written in base64 (32 unless told); throws with a message that never repeats the text. */
export function rawKey(text: string, bytes = ED25519_KEY_BYTES): Buffer {
  const trimmed = text.trim();
  const raw = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || raw.length !== bytes)
    throw new Error(`must be ${bytes} bytes, base64-encoded (got ${trimmed.length} characters)`);
  return raw;
}

/** A process's private key from its text (see above). */
export function privateKeyFromText(text: string): KeyObject {
  const der = Buffer.concat([PKCS8_PREFIX, rawKey(text)]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

/** A public key from its text (see above). */
export function publicKeyFromText(text: string): KeyObject {
  const der = Buffer.concat([SPKI_PREFIX, rawKey(text)]);
  return createPublicKey({ key: der, format: 'der', type: 'spki' });
}

/**
 * The text of a key: its 32 raw bytes (the private seed or, of a public key, the point) in standard base64
 * with padding, as openssl and `base64` print them and as the Helm chart checks them.
 */
export function keyText(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  const raw = key.type === 'private' ? jwk.d : jwk.x;
  if (jwk.crv !== 'Ed25519' || !raw) throw new Error('not an Ed25519 key');
  return Buffer.from(raw, 'base64url').toString('base64');
}

/** The public key of a private key, as text: what the processes that trust it list in their keyring. */
export const publicKeyTextOf = (privateKey: KeyObject): string => keyText(createPublicKey(privateKey));

/** A new key pair, as texts. */
export function generateSigningKey(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey: keyText(privateKey), publicKey: keyText(publicKey) };
}

/** `issuer:key` entries separated by commas or white space; throws naming the first bad entry, not its text. */
export function parseKeyring(text: string): Keyring {
  const keyring = new Map<string, KeyObject[]>();
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .forEach((entry, index) => {
      const at = entry.indexOf(':');
      const issuer = entry.slice(0, at);
      if (at < 0 || !ISSUER.test(issuer)) throw new Error(`has an entry (number ${index + 1}) that is not issuer:key`);
      let key: KeyObject;
      try {
        key = publicKeyFromText(entry.slice(at + 1));
      } catch (err) {
        throw new Error(`has a key of ${issuer} that ${(err as Error).message}`, { cause: err });
      }
      keyring.set(issuer, [...(keyring.get(issuer) ?? []), key]);
    });
  return keyring;
}

/** The text of a keyring of public key texts (the local stack and the tests write it). */
export const keyringText = (keys: Record<string, string>): string =>
  Object.entries(keys)
    .map(([issuer, key]) => `${issuer}:${key}`)
    .join(',');
