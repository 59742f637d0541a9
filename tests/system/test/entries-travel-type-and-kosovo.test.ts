// Issue 34 through the gateway: Kosovo (`XK`, the code the EU, SEPA and the banks use; the CZ annex and
// HR's list have a Kosovo row) is taken wherever a country code is, and named in the reference list; and a
// trip whose destination or itinerary lies abroad is a foreign trip, on the entry and on its papers
// ("today an entry to Vienna with foreign per-diem rows prints tuzemská / krajowa"). SPEC: a full-replace
// update clears what it omits, a GET body is a valid PUT body; docs/decisions/0190.
import { execFileSync } from 'node:child_process';
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const ENTRIES = '/api/v1/travel-entries';
const TRIP = { departureDate: '2026-11-03', returnDate: '2026-11-03' };

/** A one-day itinerary from home into `abroad` and back (stops as API-SURFACE's from-itinerary takes them). */
const stopsVia = (home: string, abroad: string) => [
  { time: '2026-11-03T05:00:00Z', countryCode: home },
  { time: '2026-11-03T07:00:00Z', countryCode: abroad },
  { time: '2026-11-03T19:00:00Z', countryCode: home },
  { time: '2026-11-03T21:00:00Z', countryCode: home },
];

/** The PDF's text with runs of white space as one space. */
const textOf = (pdf: Buffer): string =>
  execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');

describe('issue 34: Kosovo, and the travel type from where the trip goes', () => {
  let stack: EntriesStack;
  let cz: ApiClient;
  let hr: ApiClient;
  let pl: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-travel-type');
    cz = (await stack.tenant('CZ')).api;
    hr = (await stack.tenant('HR')).api;
    pl = (await stack.tenant('PL')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (api: ApiClient, body: Record<string, unknown>) => {
    const res = await api.post(ENTRIES, { ...TRIP, ...body });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
    return res.body;
  };
  const put = async (api: ApiClient, id: string, body: Record<string, unknown>) => {
    const res = await api.put(`${ENTRIES}/${id}`, body);
    if (res.status !== 200) throw new Error(`put: ${res.status} ${res.text}`);
    return res.body;
  };
  const fromItinerary = async (api: ApiClient, id: string, stops: unknown[]) => {
    const res = await api.post(`${ENTRIES}/${id}/per-diems/from-itinerary`, { stops });
    if (res.status !== 200) throw new Error(`from-itinerary: ${res.status} ${res.text}`);
    return res.body;
  };
  const paper = async (api: ApiClient, id: string, kind: 'travel-order' | 'settlement') => {
    const res = await api.bytes(`${ENTRIES}/${id}/documents/${kind}`);
    expect(res.status).toBe(200);
    return textOf(res.body);
  };

  describe('Kosovo (XK)', () => {
    it('an entry to Kosovo with a per-diem row there: taken, stored and read back as XK, a foreign trip', async () => {
      const e = await create(cz, {
        destination: 'Priština',
        destinationCountryCode: 'XK',
        perDiems: [{ countryCode: 'XK', departureTime: '2026-11-03T07:00:00Z', arrivalTime: '2026-11-03T19:00:00Z' }],
      });
      expect(e.destinationCountryCode).toBe('XK');
      expect(e.destinationCountryResolution.source).toBe('Supplied');
      expect(e.perDiems.map((r: { countryCode: string; kind: string }) => [r.kind, r.countryCode])).toEqual([
        ['Foreign', 'XK'],
      ]);
      expect(e.travelType).toBe('Foreign');
      const read = await cz.get(`${ENTRIES}/${e.id}`);
      expect(read.body).toEqual(e);
      // A GET body is a valid PUT body: nothing changes.
      expect(await put(cz, e.id, read.body)).toEqual(e);
    });

    it('an itinerary stop in Kosovo: from-itinerary prices a row there; a destination text there derives XK', async () => {
      const e = await create(hr, { destination: 'Prizren' });
      expect(e.destinationCountryCode).toBe('XK');
      expect(e.destinationCountryResolution.source).toBe('DerivedFromDestination');
      const rows = await fromItinerary(hr, e.id, stopsVia('HR', 'XK'));
      expect(rows.items.map((r: { countryCode: string; kind: string }) => [r.kind, r.countryCode])).toEqual([
        ['Domestic', 'HR'],
        ['Foreign', 'XK'],
        ['Domestic', 'HR'],
      ]);
      expect((await hr.get(`${ENTRIES}/${e.id}`)).body.travelType).toBe('Foreign');
    });

    it('the reference list names Kosovo: the contract lists XK as Kosovo, an allow-list takes it, the rate table is asked for it', async () => {
      const contract = (await cz.get('/api-reference/openapi.json')).body;
      const code = contract.components.schemas.CountryCode;
      expect(code.enum).toContain('XK');
      expect(code.description).toMatch(/`XK` for Kosovo/);
      const enabled = await cz.put('/api/v1/reference/countries', { countryCodes: ['CZ', 'XK', 'AT'] });
      expect(enabled.status).toBe(200);
      expect(enabled.body.countryCodes).toEqual(['AT', 'CZ', 'XK']);
      expect((await cz.get('/api/v1/reference/countries')).body.countryCodes).toEqual(['AT', 'CZ', 'XK']);
      const rates = await cz.get('/api/v1/reference/per-diem-rates?country=XK&date=2026-03-02');
      expect(rates.status).toBe(200);
      expect(rates.body.countryCode).toBe('XK');
      // A code nobody uses stays refused, keyed by the field.
      const bad = await cz.get('/api/v1/reference/per-diem-rates?country=XX');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { country: expect.any(Array) } });
    });
  });

  describe('travelType', () => {
    it('omitted: Foreign for a trip to Vienna (derived destination), Domestic for one to Brno', async () => {
      const vienna = await create(cz, { destination: 'Wien' });
      expect(vienna).toMatchObject({ destinationCountryCode: 'AT', travelType: 'Foreign' });
      const brno = await create(cz, { destination: 'Brno' });
      expect(brno).toMatchObject({ destinationCountryCode: 'CZ', travelType: 'Domestic' });
      const nowhere = await create(cz, {});
      expect(nowhere.travelType).toBe('Domestic');
    });

    it('the papers of a trip to Vienna say it is foreign (zahraniční / zagraniczna), never tuzemská / krajowa', async () => {
      const czech = await create(cz, { destination: 'Wien' });
      const czOrder = await paper(cz, czech.id, 'travel-order');
      expect(czOrder).toContain('Druh cesty: zahraniční');
      expect(czOrder).not.toContain('tuzemská');
      // PL: the destination unresolved, the rows go to Austria (from-itinerary sends no type).
      const polish = await create(pl, { destination: 'Qxwzv Nowhere' });
      expect(polish.travelType).toBe('Domestic');
      await fromItinerary(pl, polish.id, stopsVia('PL', 'AT'));
      expect((await pl.get(`${ENTRIES}/${polish.id}`)).body.travelType).toBe('Foreign');
      const plOrder = await paper(pl, polish.id, 'travel-order');
      expect(plOrder).toContain('Rodzaj podróży: zagraniczna');
      expect(plOrder).not.toContain('krajowa');
    });

    it('Domestic for a trip abroad is a 400 VALIDATION_FAILED keyed travelType, on a create and on a PUT', async () => {
      const toVienna = await cz.post(ENTRIES, { ...TRIP, travelType: 'Domestic', destinationCountryCode: 'AT' });
      expect(toVienna.status).toBe(400);
      expect(toVienna.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { travelType: expect.any(Array) } });
      expect(Object.keys(toVienna.body.errors)).toEqual(['travelType']);
      const foreignRows = await cz.post(ENTRIES, {
        ...TRIP,
        travelType: 'Domestic',
        destination: 'Brno',
        perDiems: [{ countryCode: 'SK', departureTime: '2026-11-03T07:00:00Z', arrivalTime: '2026-11-03T19:00:00Z' }],
      });
      expect(foreignRows.status).toBe(400);
      expect(foreignRows.body.errors).toHaveProperty('travelType');

      const e = await create(cz, { destinationCountryCode: 'AT' });
      expect(e.travelType).toBe('Foreign');
      const flipped = await cz.put(`${ENTRIES}/${e.id}`, {
        ...TRIP,
        destinationCountryCode: 'AT',
        travelType: 'Domestic',
      });
      expect(flipped.status).toBe(400);
      expect(flipped.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { travelType: expect.any(Array) } });
      expect((await cz.get(`${ENTRIES}/${e.id}`)).body).toEqual(e);
    });

    it('Foreign for a trip with nothing abroad on record is the caller’s word and is kept (docs/decisions/0190)', async () => {
      const e = await create(cz, { destination: 'Brno', travelType: 'Foreign' });
      expect(e.travelType).toBe('Foreign');
      const got = (await cz.get(`${ENTRIES}/${e.id}`)).body;
      expect(await put(cz, e.id, got)).toEqual(got);
    });

    it('a full-replace PUT: omitted is derived again (not kept); the GET body back is a no-op; a changed destination re-derives', async () => {
      const e = await create(cz, { destination: 'Brno', travelType: 'Foreign' });
      // Omitted: derived from the trip as it stands (Brno), not the stored Foreign.
      const omitted = await put(cz, e.id, { ...TRIP, destination: 'Brno' });
      expect(omitted.travelType).toBe('Domestic');
      // The GET body sent back unchanged: nothing stored, nothing changes (editedAt too).
      const got = (await cz.get(`${ENTRIES}/${e.id}`)).body;
      expect(await put(cz, e.id, got)).toEqual(got);
      // The GET body with the destination moved abroad: the echoed Domestic is not a choice, so derived.
      const moved = await put(cz, e.id, { ...got, destination: 'Wien' });
      expect(moved).toMatchObject({ destinationCountryCode: 'AT', travelType: 'Foreign' });
      // And back home, type omitted: Domestic again.
      const home = await put(cz, e.id, { ...TRIP, destination: 'Brno' });
      expect(home).toMatchObject({ destinationCountryCode: 'CZ', travelType: 'Domestic' });
    });

    it('a trip that goes abroad only on its per-diem rows is foreign; PUT without the type keeps it foreign while the rows stay', async () => {
      const e = await create(hr, { destination: 'Zagreb' });
      expect(e.travelType).toBe('Domestic');
      await fromItinerary(hr, e.id, stopsVia('HR', 'AT'));
      const got = (await hr.get(`${ENTRIES}/${e.id}`)).body;
      expect(got.travelType).toBe('Foreign');
      // perDiems omitted on the PUT: the rows are kept, so the derived type is Foreign still.
      const { travelType: _omit, perDiems: _rows, ...rest } = got;
      expect((await put(hr, e.id, rest)).travelType).toBe('Foreign');
      // The rows replaced by a domestic day: derived Domestic again.
      const home = await put(hr, e.id, {
        ...TRIP,
        destination: 'Zagreb',
        perDiems: [{ countryCode: 'HR', departureTime: '2026-11-03T05:00:00Z', arrivalTime: '2026-11-03T19:00:00Z' }],
      });
      expect(home.travelType).toBe('Domestic');
    });
  });
});
