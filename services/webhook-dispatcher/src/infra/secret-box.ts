import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Most opened secrets kept (the oldest goes first). */
const OPENED_MAX = 10_000;

/**
 * Signing secrets at rest: AES-256-GCM under a key from configuration. A database dump alone cannot
 * forge a partner's webhooks. Format `v1.<iv>.<tag>.<ciphertext>` (base64url) leaves room to rotate.
 */
export class SecretBox {
  private readonly key: Buffer;
  /**
   * Secrets opened lately, by sealed text: every attempt signs with its subscription's secrets, and opening
   * one is a decipher per send (docs/decisions/0167). Holds nothing the key in this process could not open.
   */
  private readonly opened = new Map<string, string>();

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
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plain = this.decrypt(sealed);
    if (this.opened.size >= OPENED_MAX) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(sealed, plain);
    return plain;
  }

  private decrypt(sealed: string): string {
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
