// The changelog through the gateway (SPEC Versioning 3 and 5, issue 22 §4; docs/decisions/0134): the page
// beside the API reference lists every entry of contracts/changelog.yaml, the JSON is the file, and an
// answer that carries deprecated fields sends `Deprecation` (RFC 9745) with a `Link` to the entries.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const file = parse(readFileSync(join(repoRoot(), 'contracts', 'changelog.yaml'), 'utf8')) as {
  entries: { id: string; date: string; kind: string }[];
};

describe('the changelog', () => {
  let stack: EntriesStack;
  let api: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('changelog');
    api = (await stack.tenant('CZ')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('as JSON beside the reference: the file itself', async () => {
    const res = await fetch(`${stack.gateway.url}/api-reference/changelog.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(file);
  });

  it('as a page beside the reference, listing every entry under its anchor', async () => {
    const res = await fetch(`${stack.gateway.url}/api-reference/changelog`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const e of file.entries) {
      expect(html).toContain(`<li id="${e.id}" class="${e.kind}">`);
      expect(html).toContain(`<time datetime="${e.date}">`);
    }
    expect(html).toContain('href="changelog.json"');
  });

  it('linked from the published contract', async () => {
    const contract = (await (await fetch(`${stack.gateway.url}/api-reference/openapi.json`)).json()) as {
      info: { description: string; 'x-changelog': { json: string } };
    };
    expect(contract.info.description).toContain('(/api-reference/changelog)');
    expect(contract.info['x-changelog'].json).toBe('/api-reference/changelog.json');
  });

  it('an entry (its per-diem rows carry deprecated fields) answers with Deprecation and Link; a list does not', async () => {
    const created = await api.post('/api/v1/travel-entries', { departureDate: '2026-11-20', returnDate: '2026-11-20' });
    expect(created.status).toBe(201);
    const link =
      '</api-reference/changelog#2026-09-28-night-override-deprecated>; rel="deprecation"; type="text/html", ' +
      '</api-reference/changelog#2026-11-23-per-diem-rows>; rel="deprecation"; type="text/html"';
    for (const res of [created, await api.get(`/api/v1/travel-entries/${created.body.id}`)]) {
      // 2026-09-28T00:00:00Z, the earliest deprecation the answer carries.
      expect(res.headers.get('deprecation')).toBe('@1790553600');
      expect(res.headers.get('link')).toBe(link);
    }
    const list = await api.get('/api/v1/travel-entries');
    expect(list.status).toBe(200);
    expect(list.headers.get('deprecation')).toBeNull();
    const missing = await api.get('/api/v1/travel-entries/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('deprecation')).toBeNull();
  });
});
