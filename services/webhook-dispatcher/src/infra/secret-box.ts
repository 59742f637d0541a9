import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest: AES-256-GCM under a key from configuration. A database dump alone cannot
 * forge a partner's webhooks. Format `v1.<iv>.<tag>.<ciphertext>` (base64url) leaves room to rotate.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    this.key = Buffer.from(keyBase64, 'base64');
    if (this.key.length !== 32) throw new Error('WEBHOOK_SECRET_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ct]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ct] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unknown sealed-secret format');
    const authTag = Buffer.from(tag, 'base64url');
    // GCM would accept a tag cut down to 4 bytes; only the full 16 bytes authenticate.
    if (authTag.length !== 16) throw new Error('sealed secret has a truncated authentication tag');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
    decipher.setAuthTag(authTag);
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}
