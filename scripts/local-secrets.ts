// The local stack's secrets (`npm start`, scripts/stack.ts): made once per checkout in
// .local/dev/secrets.json (never committed) and kept across starts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SERVICE_NAMES } from '../contracts/src/services';
import { generateSigningKey, keyringText, privateKeyFromText, publicKeyTextOf } from '../packages/platform/src';

export interface LocalSecrets {
  webhookKey: string;
  /** Each process's Ed25519 private key (INTERNAL_SIGNING_KEY), by name. */
  signingKeys: Record<string, string>;
}

/**
 * The secrets in `file`, completed when a process has no key yet (a new service, or a file from before the
 * signing keys, whose shared `context` secret is dropped) and written back only then.
 */
export function localSecrets(file: string): LocalSecrets {
  const known = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  const secrets: LocalSecrets = {
    webhookKey: known.webhookKey ?? randomBytes(32).toString('base64'),
    signingKeys: { ...known.signingKeys },
  };
  for (const name of SERVICE_NAMES) secrets.signingKeys[name] ??= generateSigningKey().privateKey;
  if (JSON.stringify(secrets) !== JSON.stringify(known)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}

/**
 * A process's key material: its own private key and, for a service, the public keys of every process. The
 * local stack trusts every process as a caller; the chart lists only a service's real callers (0102).
 */
export function keyEnv(secrets: LocalSecrets): (name: string) => Record<string, string> {
  const publicKeys = Object.fromEntries(
    Object.entries(secrets.signingKeys).map(([name, key]) => [name, publicKeyTextOf(privateKeyFromText(key))]),
  );
  return (name) => ({
    INTERNAL_SIGNING_KEY: secrets.signingKeys[name]!,
    ...(name === 'gateway' ? {} : { INTERNAL_TRUSTED_KEYS: keyringText(publicKeys) }),
  });
}
