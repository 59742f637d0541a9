// The local stack's key material (scripts/local-secrets.ts, decision 0102): one signing key per process in
// .local/dev/secrets.json, made once and kept, completed for a process without one, and wired so every
// process starts and every service trusts the gateway.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@travel/contracts';
import { keyText, parseConfig, publicKeyTextOf } from '@travel/platform';
import { configSchema as entries } from '@travel/entries/src/config';
import { configSchema as gateway } from '@travel/gateway/src/config';
import { keyEnv, localSecrets } from '../../../scripts/local-secrets';

describe('the local stack’s secrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-secrets-'));
  const file = join(dir, 'dev', 'secrets.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a key per process once, and keeps them across starts', () => {
    const first = localSecrets(file);
    expect(Object.keys(first.signingKeys).sort()).toEqual([...SERVICE_NAMES].sort());
    expect(new Set(Object.values(first.signingKeys)).size).toBe(SERVICE_NAMES.length);
    const written = readFileSync(file, 'utf8');
    expect(localSecrets(file)).toEqual(first);
    expect(readFileSync(file, 'utf8')).toBe(written);
  });

  it('completes a file from before the signing keys, keeping the webhook key and dropping the shared secret', () => {
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ context: 'the-old-shared-secret', webhookKey: 'd2ViaG9vaw==' }));
    const secrets = localSecrets(old);
    expect(secrets.webhookKey).toBe('d2ViaG9vaw==');
    expect(Object.keys(secrets.signingKeys)).toHaveLength(SERVICE_NAMES.length);
    expect(JSON.parse(readFileSync(old, 'utf8'))).not.toHaveProperty('context');
  });

  it('gives each process its own key, and each service a keyring with the gateway’s public key', () => {
    const secrets = localSecrets(file);
    const envOf = keyEnv(secrets);
    const gw = parseConfig(gateway, envOf('gateway'));
    expect(keyText(gw.signingKey)).toBe(secrets.signingKeys.gateway);
    const service = parseConfig(entries, envOf('entries'));
    expect(keyText(service.signingKey)).toBe(secrets.signingKeys.entries);
    expect(service.trustedKeys.get('gateway')!.map(keyText)).toEqual([publicKeyTextOf(gw.signingKey)]);
  });
});
