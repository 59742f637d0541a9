// The changelog (SPEC Versioning 3 and 5, issue 22 §4; docs/decisions/0134): one file, contracts/changelog.yaml,
// kept in step with the contract and the page. The page and JSON through the gateway, and the headers on
// real answers: tests/system/test/changelog.test.ts.
import {
  CHANGE_KINDS,
  CHANGELOG_JSON,
  CHANGELOG_PAGE,
  changelogDocument,
  deprecatedPointers,
  deprecatedResponses,
  openApiDocument,
} from '@travel/contracts';
import { pointerLabel, renderChangelogPage } from './changelog-page';
import { withAddedHeaders } from './proxy';

const contract = openApiDocument() as Record<string, any>;
const changelog = changelogDocument();
const at = (pointer: string): any =>
  pointer
    .split('/')
    .slice(1)
    .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], contract as any);

describe('contracts/changelog.yaml', () => {
  it('has dated entries, newest first, each additive, behavioural or structural, with a unique id', () => {
    const ids = changelog.entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of changelog.entries) {
      expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isNaN(Date.parse(e.date))).toBe(false);
      expect(CHANGE_KINDS).toContain(e.kind);
      expect(e.change.trim().length).toBeGreaterThan(10);
      expect(e.id).toMatch(/^[a-z0-9-]+$/);
    }
    const dates = changelog.entries.map((e) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('carries the spec’s nine behavioural and structural changes with their dates (SPEC Versioning 3)', () => {
    const spec = [
      ['2026-10-07', 'structural', '`GET /api/v1/payouts/ready` returns the paged envelope'],
      ['2026-10-05', 'behavioural', '`vehicleId` ignored on non-mileage expenses'],
      ['2026-10-03', 'behavioural', '`ManageVehicles` introduced'],
      ['2026-10-02', 'behavioural', 'archive and unarchive endpoints added'],
      ['2026-09-28', 'behavioural', '`nightOffWindowOverride` and `nightOverrideReason` deprecated'],
      ['2026-09-13', 'behavioural', 'Prague, Bratislava and Warsaw time'],
      ['2026-09-12', 'behavioural', '`category` optional on vehicle update'],
      ['2026-08-17', 'behavioural', '`locked` reports derived document locks'],
      ['2026-05-23', 'structural', '`compute` and `calculate-simple` removed'],
    ];
    for (const [date, kind, words] of spec)
      expect(changelog.entries).toContainEqual(
        expect.objectContaining({ date, kind, change: expect.stringContaining(words!) }),
      );
  });

  it('names every `deprecated: true` of the contract in exactly one entry, and only those', () => {
    const named = changelog.entries.flatMap((e) => e.deprecates ?? []);
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual(deprecatedPointers(contract).sort());
    for (const pointer of named) expect(at(pointer)?.deprecated).toBe(true);
    // The spec's own deprecations sit on its entries.
    const nights = changelog.entries.find((e) => e.date === '2026-09-28')!;
    expect(nights.deprecates).toContain('/components/schemas/PerDiem/properties/nightOffWindowOverride');
  });

  it('is linked from the contract’s info', () => {
    expect(contract.info['x-changelog']).toEqual({ page: CHANGELOG_PAGE, json: CHANGELOG_JSON });
    expect(contract.info.description).toContain(`(${CHANGELOG_PAGE})`);
  });
});

describe('the changelog page', () => {
  const page = renderChangelogPage(changelog, 'Travel-expense API');

  it('lists every entry under its anchor, with its date, kind and text, and what it deprecates', () => {
    for (const e of changelog.entries) {
      expect(page).toContain(`<li id="${e.id}" class="${e.kind}">`);
      expect(page).toContain(`<time datetime="${e.date}">${e.date}</time>`);
      expect(page).toContain(`<span class="kind">${e.kind}</span>`);
      for (const p of e.deprecates ?? []) expect(page).toContain(`<code>${pointerLabel(p)}</code>`);
    }
    expect(page.match(/<li id=/g)).toHaveLength(changelog.entries.length);
  });

  it('escapes the text and shows backticks as code', () => {
    const html = renderChangelogPage(
      { entries: [{ id: 'x', date: '2026-01-01', kind: 'additive', change: '`<b>` & "q"' }] },
      'T<',
    );
    expect(html).toContain('<code>&#60;b&#62;</code> &#38; &#34;q&#34;');
    expect(html).toContain('<title>T&#60; — changelog</title>');
  });

  it('names deprecated things as people read them', () => {
    expect(pointerLabel('/components/schemas/PerDiem/properties/mealsProvided')).toBe('PerDiem.mealsProvided');
    expect(pointerLabel('/paths/~1api~1v1~1per-diems~1calculate-simple/post')).toBe(
      'POST /api/v1/per-diems/calculate-simple',
    );
  });
});

describe('deprecation headers, derived from the contract once (RFC 9745)', () => {
  const headers = deprecatedResponses(contract, changelog);
  // 2026-09-28T00:00:00Z: the earlier of the two deprecations an entry's per-diem rows carry.
  const NIGHTS = '@1790553600';
  const links =
    '</api-reference/changelog#2026-09-28-night-override-deprecated>; rel="deprecation"; type="text/html", ' +
    '</api-reference/changelog#2026-11-23-per-diem-rows>; rel="deprecation"; type="text/html"';

  it('an entry’s detail, create and replace carry per-diem rows: Deprecation and Link to both entries', () => {
    for (const [op, status] of [
      ['GET /api/v1/travel-entries/{id}', 200],
      ['POST /api/v1/travel-entries', 201],
      ['PUT /api/v1/travel-entries/{id}', 200],
      ['POST /api/v1/travel-entries/{id}/per-diems/from-itinerary', 200],
    ] as const)
      expect(headers.get(op)?.get(status)).toEqual({ deprecation: NIGHTS, link: links });
    expect(Date.parse('2026-09-28T00:00:00Z') / 1000).toBe(1790553600);
  });

  it('answers without deprecated fields, and error answers, get none', () => {
    expect(headers.get('GET /api/v1/vehicles')).toBeUndefined();
    expect(headers.get('GET /api/v1/travel-entries')).toBeUndefined();
    expect(headers.get('GET /api/v1/travel-entries/{id}')?.has(404)).toBe(false);
  });

  it('a deprecated field no entry names stops the derivation (the gateway does not start)', () => {
    const doc = structuredClone(contract);
    doc.components.schemas.Vehicle.properties.make.deprecated = true;
    expect(() => deprecatedResponses(doc, changelog)).toThrow(
      '/components/schemas/Vehicle/properties/make is deprecated in the contract but no changelog entry deprecates it',
    );
  });

  it('a Link the service sent is kept beside the gateway’s', () => {
    expect(
      withAddedHeaders(['link', '</a>; rel="next"', 'content-type', 'x'], { link: '</b>', deprecation: '@1' }),
    ).toEqual(['content-type', 'x', 'link', '</a>; rel="next", </b>', 'deprecation', '@1']);
    expect(withAddedHeaders(['a', '1'], undefined)).toEqual(['a', '1']);
  });
});
