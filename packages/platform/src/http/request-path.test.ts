import { canonicalTarget } from './request-path';

describe('canonicalTarget', () => {
  it.each([
    ['/api/v1/employees', '/api/v1/employees', ''],
    ['/api/v1/travel-entries?isRequest=true&page=2', '/api/v1/travel-entries', '?isRequest=true&page=2'],
    // The query is kept as it came, dots and encoded slashes included.
    ['/api/v1/travel-entries?q=..%2f..%2F&x=%252e', '/api/v1/travel-entries', '?q=..%2f..%2F&x=%252e'],
    ['/api-reference/', '/api-reference/', ''],
    ['/', '/', ''],
    // Escapes of unreserved characters are decoded, others written in upper case.
    ['/api/v1/%65mployees/%41b%7E', '/api/v1/employees/Ab~', ''],
    ['/api/v1/employees/x%3ay', '/api/v1/employees/x%3Ay', ''],
    ['/api/v1/employees/caf%c3%a9', '/api/v1/employees/caf%C3%A9', ''],
    // Dots inside a segment are not dot segments.
    ['/api/v1/employees/a.b', '/api/v1/employees/a.b', ''],
    ['/api/v1/employees/a%2eb', '/api/v1/employees/a.b', ''],
    ['/api/v1/vehicles/x:y@z', '/api/v1/vehicles/x:y@z', ''],
  ])('%s is %s', (target, path, query) => {
    expect(canonicalTarget(target)).toEqual({ ok: true, path, query });
  });

  it.each([
    // Dot segments, raw or encoded in any case and mix.
    ['/api/v1/travel-entries/../../../API/V1/travel-entries', 'dot segment'],
    ['/api/v1/travel-entries/%2e%2e/%2e%2e/%2e%2e/API/V1/travel-entries', 'dot segment'],
    ['/api/v1/employees/%2E%2E/metrics', 'dot segment'],
    ['/api/v1/employees/.%2e/readyz', 'dot segment'],
    ['/api/v1/employees/%2e./healthz', 'dot segment'],
    ['/api/v1/./employees', 'dot segment'],
    ['/api/v1/%2e/employees', 'dot segment'],
    ['/api/v1/employees/..', 'dot segment'],
    ['/api/v1/employees/...', 'dot segment'],
    ['/api/v1/employees/.', 'dot segment'],
    // Encoded separators and backslashes.
    ['/api/v1/employees/..%2f..%2fmetrics', 'encoded "/"'],
    ['/api/v1/employees%2F123', 'encoded "/"'],
    ['/api/v1/employees/%5c..%5cmetrics', 'encoded "\\\\"'],
    ['/api/v1/employees\\..\\metrics', 'backslash'],
    // Double encoding, NUL, control characters.
    ['/api/v1/employees/%252e%252e/metrics', 'encoded "%"'],
    ['/api/v1/employees/x%00', 'encoded "\\u0000"'],
    ['/api/v1/employees/x%0a', 'encoded "\\n"'],
    // Invalid UTF-8: overlong forms of "." and "/", a lone continuation byte, a truncated sequence.
    ['/api/v1/employees/%c0%ae%c0%ae/metrics', 'not UTF-8'],
    ['/api/v1/employees/%c0%af', 'not UTF-8'],
    ['/api/v1/employees/%e0%80%ae', 'not UTF-8'],
    ['/api/v1/employees/%80', 'not UTF-8'],
    ['/api/v1/employees/%c3', 'not UTF-8'],
    ['/api/v1/employees/%zz', 'two hex digits'],
    ['/api/v1/employees/%2', 'two hex digits'],
    // Empty segments, matrix parameters, characters a path may not carry raw.
    ['//api/v1/employees', 'empty segment'],
    ['/api/v1//employees', 'empty segment'],
    ['/api/v1/employees;jsessionid=1', '";"'],
    ['/api/v1/employees/%3b', 'encoded ";"'],
    ['/api/v1/employees/x y', 'percent-encoded'],
    ['/api/v1/employees/<x>', 'percent-encoded'],
    ['/api/v1/employees#x', 'percent-encoded'],
    ['/api/v1/employees/%23x', 'encoded "#"'],
    ['/api/v1/employees/%3F', 'encoded "?"'],
    // Only origin-form targets.
    ['http://example.com/api/v1/employees', 'start with "/"'],
    ['*', 'start with "/"'],
    ['', 'start with "/"'],
  ])('refuses %s (%s)', (target, reason) => {
    const result = canonicalTarget(target);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toContain(reason);
  });

  it('a canonical path is its own canonical form', () => {
    for (const target of ['/api/v1/employees/x%3Ay', '/api/v1/employees/caf%C3%A9', '/api/v1/company']) {
      expect(canonicalTarget(target)).toEqual({ ok: true, path: target, query: '' });
    }
  });
});
