import { generateSigningKey, privateKeyFromText } from './context-keys';
import { SealedBox } from './sealed-box';

const signingKey = () => privateKeyFromText(generateSigningKey().privateKey);

describe('SealedBox', () => {
  const key = signingKey();
  const plain = Buffer.from('whsec_shown-once', 'utf8');

  it('opens what it sealed, in any replica holding the same signing key, and hides the bytes', () => {
    const sealed = new SealedBox(key, 'label a').seal(plain);
    expect(sealed.includes(plain)).toBe(false);
    expect(new SealedBox(key, 'label a').open(sealed)?.toString('utf8')).toBe('whsec_shown-once');
  });

  it('seals the same bytes differently each time (a fresh IV)', () => {
    const box = new SealedBox(key, 'label a');
    expect(box.seal(plain).equals(box.seal(plain))).toBe(false);
  });

  it('opens nothing under another label, another signing key, altered or truncated bytes', () => {
    const sealed = new SealedBox(key, 'label a').seal(plain);
    expect(new SealedBox(key, 'label b').open(sealed)).toBeNull();
    expect(new SealedBox(signingKey(), 'label a').open(sealed)).toBeNull();
    const altered = Buffer.from(sealed);
    altered[14] ^= 1;
    expect(new SealedBox(key, 'label a').open(altered)).toBeNull();
    expect(new SealedBox(key, 'label a').open(sealed.subarray(0, 20))).toBeNull();
  });
});
