import { cookieValue, foreignOriginReason, withoutCookie } from './csrf';

const HOST = 'console.example.com';

describe('foreignOriginReason', () => {
  it.each<[string, Record<string, string>]>([
    ['a same-origin fetch', { host: HOST, origin: `https://${HOST}`, 'sec-fetch-site': 'same-origin' }],
    ['the origin without Sec-Fetch-Site (an older browser)', { host: HOST, origin: `https://${HOST}` }],
    ['neither header (not a browser: holds no cookie of a victim)', { host: HOST }],
    ['a local gateway on its port', { host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' }],
  ])('lets %s through', (_name, headers) => {
    expect(foreignOriginReason(headers)).toBeNull();
  });

  it.each<[string, Record<string, string>, RegExp]>([
    [
      'a form on another site',
      { host: HOST, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      /cross-site/,
    ],
    [
      'a page of a sibling subdomain',
      { host: HOST, origin: 'https://blog.example.com', 'sec-fetch-site': 'same-site' },
      /same-site/,
    ],
    ['another port of the same host', { host: '127.0.0.1:8080', origin: 'http://127.0.0.1:9999' }, /127\.0\.0\.1:9999/],
    ['a cross-site page in a browser without Sec-Fetch-Site', { host: HOST, origin: 'https://evil.example' }, /evil/],
    ['an opaque origin (a sandboxed frame, a data: URL)', { host: HOST, origin: 'null' }, /not a URL/],
    ['a request typed into the address bar (none)', { host: HOST, 'sec-fetch-site': 'none' }, /none/],
  ])('refuses %s', (_name, headers, reason) => {
    expect(foreignOriginReason(headers)).toMatch(reason);
  });
});

describe('cookies', () => {
  const header = 'a=1; te_console=sealed.value; theme=dark';
  it('reads one cookie', () => {
    expect(cookieValue(header, 'te_console')).toBe('sealed.value');
    expect(cookieValue(header, 'console')).toBeUndefined();
    expect(cookieValue(undefined, 'te_console')).toBeUndefined();
  });
  it('removes one cookie and keeps the others', () => {
    expect(withoutCookie(header, 'te_console')).toBe('a=1; theme=dark');
    expect(withoutCookie('te_console=x', 'te_console')).toBeUndefined();
    expect(withoutCookie(undefined, 'te_console')).toBeUndefined();
  });
});
