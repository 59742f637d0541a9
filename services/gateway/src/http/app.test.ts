import type { IncomingHttpHeaders } from 'node:http';
import { presentedKey } from './api-hop';

const KEY = 'tek_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const OTHER = 'tek_ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkj';

/** The headers as Node hands them over: names in lower case. */
const req = (headers: Record<string, string>): IncomingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

describe('presentedKey', () => {
  it.each<[string, Record<string, string>]>([
    ['Authorization: Bearer', { Authorization: `Bearer ${KEY}` }],
    ['lower-case bearer', { authorization: `bearer ${KEY}` }],
    ['upper-case BEARER', { Authorization: `BEARER ${KEY}` }],
    ['several spaces after Bearer', { Authorization: `Bearer    ${KEY}` }],
    ['a tab after Bearer', { Authorization: `Bearer\t${KEY}` }],
    ['trailing whitespace', { Authorization: `Bearer ${KEY}  ` }],
    ['X-Api-Key', { 'X-Api-Key': KEY }],
    ['x-api-key in lower case', { 'x-api-key': KEY }],
    ['X-Api-Key with surrounding spaces', { 'X-Api-Key': `  ${KEY} ` }],
  ])('reads the key from %s', (_name, headers) => {
    expect(presentedKey(req(headers))).toBe(KEY);
  });

  it('prefers Authorization when both headers are sent', () => {
    expect(presentedKey(req({ Authorization: `Bearer ${KEY}`, 'X-Api-Key': OTHER }))).toBe(KEY);
  });

  it.each([
    ['Basic credentials', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a key', 'Bearer'],
    ['Bearer and only spaces', 'Bearer   '],
    ['the key without a scheme', KEY],
    ['two tokens after Bearer', `Bearer ${KEY} ${OTHER}`],
    ['no space after Bearer', `Bearer${KEY}`],
    ['a leading space', ` Bearer ${KEY}`],
    ['another scheme that contains Bearer', `XBearer ${KEY}`],
  ])('a malformed Authorization (%s) gives undefined', (_name, value) => {
    expect(presentedKey(req({ Authorization: value }))).toBeUndefined();
  });

  it('a malformed Authorization still wins: it does not fall back to X-Api-Key', () => {
    expect(presentedKey(req({ Authorization: 'Basic dXNlcjpwYXNz', 'X-Api-Key': KEY }))).toBeUndefined();
  });

  it.each<[string, Record<string, string>]>([
    ['no headers', {}],
    ['an empty X-Api-Key', { 'X-Api-Key': '' }],
    ['a blank X-Api-Key', { 'X-Api-Key': '   ' }],
    ['an empty Authorization and no X-Api-Key', { Authorization: '' }],
  ])('%s gives undefined', (_name, headers) => {
    expect(presentedKey(req(headers))).toBeUndefined();
  });

  it('an empty Authorization header counts as absent, so X-Api-Key is used', () => {
    expect(presentedKey(req({ Authorization: '', 'X-Api-Key': KEY }))).toBe(KEY);
  });
});
