import { CONSOLE_SESSION_MAX_MS, consoleSessionRecord, isSessionId } from './console-session';

const NOW = new Date('2026-11-29T08:00:00Z');
const ID = 'AAAAAAAAAAAAAAAAAAAAAA';

describe('console session records', () => {
  it('keeps the end the gateway sent', () => {
    const end = new Date(NOW.getTime() + 3600_000).toISOString();
    expect(consoleSessionRecord(ID, { apiKeyId: 'k1', expiresAt: end }, NOW)).toEqual({
      record: { sessionId: ID, apiKeyId: 'k1', createdAt: NOW, expiresAt: new Date(end) },
      errors: {},
    });
  });

  it('never keeps a session longer than 8 hours, whatever end it is sent', () => {
    const far = new Date(NOW.getTime() + 30 * 86_400_000).toISOString();
    const { record } = consoleSessionRecord(ID, { apiKeyId: 'k1', expiresAt: far }, NOW);
    expect(record.expiresAt.getTime() - NOW.getTime()).toBe(CONSOLE_SESSION_MAX_MS);
    expect(CONSOLE_SESSION_MAX_MS).toBe(8 * 3600_000);
  });

  it.each<[string, unknown, Record<string, string[]>]>([
    ['no body', undefined, { apiKeyId: ['must be an API key id'], expiresAt: ['must be a date-time'] }],
    [
      'an end in the past',
      { apiKeyId: 'k1', expiresAt: '2026-11-29T07:59:59Z' },
      { expiresAt: ['must be in the future'] },
    ],
    [
      'an object for the key id',
      { apiKeyId: { $ne: null }, expiresAt: '2026-11-29T09:00:00Z' },
      { apiKeyId: ['must be an API key id'] },
    ],
  ])('refuses %s', (_name, body, errors) => {
    expect(consoleSessionRecord(ID, body, NOW).errors).toEqual(errors);
  });

  it('session ids are the gateway’s: 22 base64url characters', () => {
    expect([ID, 'a-b_c'.padEnd(22, 'x')].map(isSessionId)).toEqual([true, true]);
    expect(['', 'x'.repeat(21), 'x'.repeat(23), '../../api-keys/resolve', { $gt: '' }].map(isSessionId)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
