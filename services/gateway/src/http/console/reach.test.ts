// The cookie's reach (docs/decisions/0193) is written once, as data; the console's scripts are read here so
// the page and the list cannot drift: every api(…) call the page makes is in the list, every entry of the
// list is a call the page makes, and every entry is an operation of the contract.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '@travel/contracts';
import { ContractRoutes } from '@travel/platform';
import { consoleFilesDir } from './routes';
import { CONSOLE_REACH, consoleMayReach } from './reach';

const ID = '0b7c2a4e-5f1d-4c3b-9a8e-7d6c5b4a3f21';

/** A script without its comments (which may name api(…) in prose). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every .js file of the console, with its text. */
function scripts(): { file: string; text: string }[] {
  const dir = join(consoleFilesDir(__dirname), 'assets');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.js'))
    .map((file) => ({ file, text: withoutComments(readFileSync(join(dir, file), 'utf8')) }));
}

interface Call {
  file: string;
  method: string;
  /** The path as written: a string or a template literal's text. */
  written: string;
}

/** The page's calls: `api('METHOD', '<path>' | `<path>`…)`. A call whose path is not a literal fails the test. */
function apiCalls(): { calls: Call[]; unreadable: string[] } {
  const calls: Call[] = [];
  const unreadable: string[] = [];
  for (const { file, text } of scripts()) {
    for (const m of text.matchAll(/\bapi\(([^)]*)/g)) {
      if (/^\s*method\s*,/.test(m[1]!)) continue; // the definition: `function api(method, path, body)`
      const call = /^\s*'([A-Z]+)',\s*(?:'([^']*)'|`([^`]*)`)/.exec(text.slice(m.index! + 4));
      if (!call) unreadable.push(`${file}: api(${m[1]!.slice(0, 60)}`);
      else calls.push({ file, method: call[1]!, written: call[2] ?? call[3]! });
    }
  }
  return { calls, unreadable };
}

/** A written path as the gateway would see it: each `${seg(…)}` an id, the query (literal or `${query(…)}`) dropped. */
const concrete = (written: string) =>
  written
    .replace(/\$\{query\([^`]*$/, '')
    .replace(/\?.*$/, '')
    .replace(/\$\{seg\([^)]*\)\}/g, ID);

/** The list's template for a written path: `${seg(…)}` read as one parameter. */
const template = (written: string) =>
  concrete(written)
    .split('/')
    .map((s) => (s === ID ? '{}' : s))
    .join('/');

describe("the console cookie's reach", () => {
  const { calls, unreadable } = apiCalls();

  it('reads every api(…) call of the console, each with a literal path', () => {
    expect(unreadable).toEqual([]);
    // The three views and the shell make at least these many calls; a broken reader finds none.
    expect(calls.length).toBeGreaterThanOrEqual(10);
  });

  it('every id the page puts into a path goes through seg(): encoded as one segment, and only an id', () => {
    // The path before its query: the query's values are URL-encoded (URLSearchParams, or numbers).
    const raw = calls.filter((c) => /\$\{(?!seg\(|query\()/.test(c.written.split('?')[0]!));
    expect(raw.map((c) => `${c.file}: ${c.method} ${c.written}`)).toEqual([]);
  });

  it('every call the page makes is in the list', () => {
    const outside = calls.filter((c) => !consoleMayReach(c.method, `/api/v1${concrete(c.written)}`));
    expect(outside.map((c) => `${c.file}: ${c.method} ${c.written}`)).toEqual([]);
  });

  it('every entry of the list is a call the page makes (no reach the page does not need)', () => {
    const used = new Set(calls.map((c) => `${c.method} ${template(c.written)}`));
    const unused = CONSOLE_REACH.filter((e) => !used.has(`${e.method} ${e.path.replace(/\{\w+\}/g, '{}')}`));
    expect(unused).toEqual([]);
  });

  it('every entry is an operation of the contract', () => {
    const contract = new ContractRoutes(openApiDocument());
    for (const { method, path } of CONSOLE_REACH) {
      const known = contract.match(`/api/v1${path.replace(/\{\w+\}/g, ID)}`);
      expect([method, path, known?.template, known?.allowed.includes(method)]).toEqual([
        method,
        path,
        `/api/v1${path}`,
        true,
      ]);
    }
  });

  it.each<[string, string]>([
    ['GET', '/api/v1/payouts/0b7c2a4e-5f1d-4c3b-9a8e-7d6c5b4a3f21/payment-file'],
    ['POST', '/api/v1/payouts/0b7c2a4e-5f1d-4c3b-9a8e-7d6c5b4a3f21/sent-to-bank'],
    ['GET', '/api/v1/employees'],
    ['POST', '/api/v1/api-keys'],
    ['PUT', '/api/v1/company'],
    ['PUT', `/api/v1/webhooks/${ID}`],
    ['GET', `/api/v1/webhooks/${ID}/deliveries/${ID}/retry`],
    ['GET', '/api/v1/webhooks/a/b'],
    ['GET', '/api/v1/webhooks/'],
    ['HEAD', '/api/v1/webhooks'],
  ])('refuses %s %s', (method, path) => {
    expect(consoleMayReach(method, path)).toBe(false);
  });

  it('a parameter is exactly one segment', () => {
    expect(consoleMayReach('GET', `/api/v1/webhooks/${ID}/deliveries`)).toBe(true);
    expect(consoleMayReach('GET', `/api/v1/webhooks/${ID}/x/deliveries`)).toBe(false);
    expect(consoleMayReach('GET', '/api/v1/webhooks//deliveries')).toBe(false);
  });
});
