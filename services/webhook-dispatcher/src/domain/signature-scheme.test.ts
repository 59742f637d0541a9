import { contractAt } from '@travel/contracts';
import { checkRegistration } from './subscription-rules';
import { DEFAULT_SIGNATURE_SCHEME, SIGNATURE_SCHEMES, newSigningSecret, schemeOf } from './signature-scheme';

describe('signature schemes (decision 0226)', () => {
  it('are the contract’s enum, with its default', () => {
    const schema = contractAt('/components/schemas/WebhookSignatureScheme') as { enum: string[]; default: string };
    expect([...SIGNATURE_SCHEMES]).toEqual(schema.enum);
    expect(DEFAULT_SIGNATURE_SCHEME).toBe(schema.default);
  });

  it('reads a record without the field as the Svc-* scheme', () => {
    expect([schemeOf({}), schemeOf({ signatureScheme: 'standard-webhooks' })]).toEqual(['svc', 'standard-webhooks']);
  });

  it('makes 32-byte secrets in each scheme’s form', () => {
    const svc = newSigningSecret('svc');
    const standard = newSigningSecret('standard-webhooks');
    expect(svc).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(standard).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(standard.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('refuses an unknown scheme at registration, under signatureScheme', () => {
    const url = 'https://hooks.partner.example/travel';
    const { errors } = checkRegistration(url, ['entry.approved'], 'svix' as never);
    expect(errors).toEqual({ signatureScheme: ['must be one of "svc", "standard-webhooks"'] });
  });
});
