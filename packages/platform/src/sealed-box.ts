import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals bytes with AES-256-GCM under a key derived (HKDF-SHA256) from a process's Ed25519 signing key and
 * a context label, and opens them again. Every replica of a process holds the same signing key, so each
 * opens what any other sealed, with no shared store and no new secret to configure; another label (or a
 * rotated signing key) opens nothing. Used for the console's session cookie (docs/decisions/0145) and for
 * the answers shown once that an Idempotency-Key replays (0195).
 */
export class SealedBox {
  private readonly key: Buffer;
  private readonly label: Buffer;

  constructor(signingKey: KeyObject, label: string) {
    this.label = Buffer.from(label);
    const material = signingKey.export({ format: 'der', type: 'pkcs8' });
    this.key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), this.label, 32));
  }

  seal(plain: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(this.label);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]);
  }

  /** The plain bytes, or null when they were not sealed under this key and label, or were altered. */
  open(sealed: Buffer): Buffer | null {
    if (sealed.length <= IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(this.label);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return null;
    }
  }
}
