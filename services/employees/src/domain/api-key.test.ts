import { createHash } from 'node:crypto';
import { isWellFormedApiKey } from '@travel/contracts/src/api-key-format';
import { effectivePermissions, hashApiKey, issueApiKey, issuerActingFor, keyRights, looksLikeApiKey } from './api-key';

const sha256hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('issueApiKey', () => {
  const issued = issueApiKey();

  it('issues tek_ + 43 base64url characters (256 random bits)', () => {
    expect(issued.key).toMatch(/^tek_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(issued.key.slice(4), 'base64url')).toHaveLength(32);
  });

  it('stores the SHA-256 hex digest of the key', () => {
    expect(issued.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.hash).toBe(sha256hex(issued.key));
    expect(issued.hash).toBe(hashApiKey(issued.key));
  });

  it('shows a hint of the prefix plus 6 characters, never the whole key', () => {
    expect(issued.hint).toBe(issued.key.slice(0, 10));
    expect(issued.hint).toHaveLength(10);
    expect(issued.hint.startsWith('tek_')).toBe(true);
  });

  it('issues a different key and hash every time', () => {
    const many = Array.from({ length: 50 }, () => issueApiKey());
    expect(new Set(many.map((k) => k.key)).size).toBe(50);
    expect(new Set(many.map((k) => k.hash)).size).toBe(50);
  });

  it('issues keys that look like API keys', () => {
    for (let i = 0; i < 20; i++) expect(looksLikeApiKey(issueApiKey().key)).toBe(true);
  });

  it('issues keys of the form the gateway checks before any lookup', () => {
    for (let i = 0; i < 200; i++) expect(isWellFormedApiKey(issueApiKey().key)).toBe(true);
  });
});

describe('hashApiKey', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('is SHA-256 hex (%p)', (input, digest) => {
    expect(hashApiKey(input)).toBe(digest);
  });

  it('hashes the UTF-8 bytes', () => {
    expect(hashApiKey('tek_žš')).toBe(sha256hex('tek_žš'));
  });

  it('is deterministic and different for different keys', () => {
    expect(hashApiKey('tek_a')).toBe(hashApiKey('tek_a'));
    expect(hashApiKey('tek_a')).not.toBe(hashApiKey('tek_b'));
  });
});

describe('looksLikeApiKey', () => {
  it.each<[string, string, boolean]>([
    ['a real key', `tek_${'A'.repeat(43)}`, true],
    ['the shortest accepted (prefix + 40)', `tek_${'a'.repeat(40)}`, true],
    ['one character too short', `tek_${'a'.repeat(39)}`, false],
    ['the longest accepted (128)', `tek_${'a'.repeat(124)}`, true],
    ['one character too long', `tek_${'a'.repeat(125)}`, false],
    ['the prefix alone', 'tek_', false],
    ['empty', '', false],
    ['another prefix', `sk_${'a'.repeat(43)}`, false],
    ['an upper-case prefix', `TEK_${'a'.repeat(43)}`, false],
    ['a webhook secret', `whsec_${'a'.repeat(43)}`, false],
    ['a Bearer header value', `Bearer tek_${'a'.repeat(43)}`, false],
  ])('%s → %s', (_name, key, expected) => {
    expect(looksLikeApiKey(key)).toBe(expected);
  });
});

describe('effectivePermissions (docs/decisions/0104)', () => {
  it("is the employee's flags within the cap: a flag granted after issuing does not reach the key", () => {
    expect(effectivePermissions(['ManagePayouts'], ['ManageCompanyData'])).toEqual([]);
    expect(effectivePermissions(['ReadAllEntries', 'ManagePayouts'], ['ReadAllEntries', 'ManageCompanyData'])).toEqual([
      'ReadAllEntries',
    ]);
  });

  it("never adds a flag the employee does not hold (the cap is a ceiling), and null means the employee's flags", () => {
    expect(effectivePermissions([], ['ManagePayouts', 'ManageCompanyData'])).toEqual([]);
    expect(effectivePermissions(['ManagePayouts'], null)).toEqual(['ManagePayouts']);
  });
});

describe('issuerActingFor', () => {
  it('names the issuer of a key for someone else only', () => {
    expect(issuerActingFor({ employeeId: 'b', createdByEmployeeId: 'a' })).toBe('a');
    expect(issuerActingFor({ employeeId: 'a', createdByEmployeeId: 'a' })).toBeUndefined();
    expect(issuerActingFor({ employeeId: 'a', createdByEmployeeId: null })).toBeUndefined();
  });
});

describe('keyRights: a key follows its employee and its issuer as they are now (docs/decisions/0197)', () => {
  const person = (permissions: string[], over: Partial<{ status: string; isArchived: boolean }> = {}) => ({
    status: 'Active',
    isArchived: false,
    permissions,
    ...over,
  });
  const ALL = ['ManageCompanyData', 'ManagePayouts', 'ReadAllEntries'];
  const forColleague = { employeeId: 'b', createdByEmployeeId: 'a', permissionCap: ALL };

  it("acts within the issuer's current flags as well as its employee's and the cap", () => {
    const colleague = person(['ManagePayouts', 'ReadAllEntries']);
    expect(keyRights(forColleague, colleague, person(ALL))).toEqual(['ManagePayouts', 'ReadAllEntries']);
    // The issuer lost ManagePayouts since: the key lost it too.
    expect(keyRights(forColleague, colleague, person(['ManageCompanyData', 'ReadAllEntries']))).toEqual([
      'ReadAllEntries',
    ]);
    // Regaining a flag never goes beyond the cap given at issue time.
    expect(keyRights({ ...forColleague, permissionCap: ['ReadAllEntries'] }, colleague, person(ALL))).toEqual([
      'ReadAllEntries',
    ]);
  });

  it('stops working once the issuer of a key for someone else is archived, inactive or gone', () => {
    const colleague = person(['ReadAllEntries']);
    expect(keyRights(forColleague, colleague, person(ALL, { isArchived: true }))).toBeUndefined();
    expect(keyRights(forColleague, colleague, person(ALL, { status: 'Inactive' }))).toBeUndefined();
    expect(keyRights(forColleague, colleague, undefined)).toBeUndefined();
  });

  it('stops working once its own employee is archived, inactive or gone, whoever issued it', () => {
    for (const key of [forColleague, { ...forColleague, createdByEmployeeId: null }])
      for (const employee of [person([], { isArchived: true }), person([], { status: 'Inactive' }), undefined])
        expect(keyRights(key, employee, person(ALL))).toBeUndefined();
  });

  it("a key of one's own and the operator's keys need no issuer: the employee's flags within the cap", () => {
    const me = person(['ManagePayouts', 'ReadAllEntries']);
    expect(
      keyRights({ employeeId: 'a', createdByEmployeeId: 'a', permissionCap: ['ManagePayouts'] }, me, undefined),
    ).toEqual(['ManagePayouts']);
    expect(keyRights({ employeeId: 'a', createdByEmployeeId: null, permissionCap: null }, me, undefined)).toEqual([
      'ManagePayouts',
      'ReadAllEntries',
    ]);
  });
});
