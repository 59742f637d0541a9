// The geocoding fallback through the gateway (issue 22, section 3; SPEC travel entry
// `destinationCountryCode`): without a supplied code the country is derived offline from the place id or
// the destination text, or stays null and the entry says why; a supplied code is stored as sent.
// The update rule is docs/decisions/0132 as amended by issue 42 (an omitted code is cleared, as the full
// replace says); the per-diem question is answered in docs/decisions/0131.
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const ENTRIES = '/api/v1/travel-entries';
const TRIP = { departureDate: '2026-11-03', returnDate: '2026-11-04' };

describe('entries: the destination country (geocoding fallback)', () => {
  let stack: EntriesStack;
  let cz: ApiClient;
  let hr: ApiClient;
  let pl: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-destination-country');
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

  describe('create', () => {
    it.each([
      ['Wien', 'AT'],
      ['Brno', 'CZ'],
      ['Bratislava', 'SK'],
      ['Zagreb', 'HR'],
      ['Ljubljana', 'SI'],
      ['Kraków', 'PL'],
      ['Krakow', 'PL'],
    ])('%s → %s, derived from the destination', async (destination, country) => {
      const e = await create(cz, { destination });
      expect(e.destinationCountryCode).toBe(country);
      expect(e.destinationCountryResolution).toMatchObject({
        source: 'DerivedFromDestination',
        reason: null,
        candidates: [],
      });
      expect((await cz.get(`${ENTRIES}/${e.id}`)).body).toEqual(e);
    });

    it('Springfield → null: ambiguous, and the entry says why', async () => {
      const e = await create(cz, { destination: 'Springfield' });
      expect(e.destinationCountryCode).toBeNull();
      expect(e.destinationCountryResolution).toMatchObject({ source: 'Unresolved', reason: 'Ambiguous' });
      expect(e.destinationCountryResolution.candidates).toEqual(expect.arrayContaining(['US', 'AU', 'GB']));
      expect(e.destinationCountryResolution.detail).toContain('Springfield');
    });

    it('an unknown text → null: unknown, and the entry says why', async () => {
      const e = await create(cz, { destination: 'Qxwzv Nowhere' });
      expect(e.destinationCountryCode).toBeNull();
      expect(e.destinationCountryResolution).toMatchObject({ source: 'Unresolved', reason: 'Unknown', candidates: [] });
      expect(e.destinationCountryResolution.detail).toContain('Qxwzv Nowhere');
    });

    it('no destination at all → null: NoDestination', async () => {
      const e = await create(cz, {});
      expect(e.destinationCountryCode).toBeNull();
      expect(e.destinationCountryResolution.reason).toBe('NoDestination');
    });

    it('a supplied code is stored as sent, even when the text says otherwise', async () => {
      const e = await create(cz, { destination: 'Wien', destinationCountryCode: 'SK' });
      expect(e.destinationCountryCode).toBe('SK');
      expect(e.destinationCountryResolution).toMatchObject({ source: 'Supplied', reason: null });
    });

    it('a GeoNames place id is resolved before the text', async () => {
      const e = await create(cz, { destination: 'Springfield', destinationPlaceId: 'geonames:2761369' });
      expect(e.destinationCountryCode).toBe('AT');
      expect(e.destinationCountryResolution.source).toBe('DerivedFromPlaceId');
    });

    it("an HR company's Gradac is the domestic municipality (official list), not Graz by its old name", async () => {
      expect((await create(hr, { destination: 'Gradac' })).destinationCountryCode).toBe('HR');
    });
  });

  describe('update', () => {
    it('a GET body PUT back is valid and changes nothing (the read-only resolution accepted, ignored)', async () => {
      const e = await create(cz, { destination: 'Wien' });
      const again = await put(cz, e.id, e);
      expect(again).toEqual(e);
    });

    it('the destination changed, the stored code derived: derived again, even when the GET body repeats it', async () => {
      const e = await create(cz, { destination: 'Wien' });
      const moved = await put(cz, e.id, { ...e, destination: 'Brno' });
      expect(moved.destinationCountryCode).toBe('CZ');
      expect(moved.destinationCountryResolution.source).toBe('DerivedFromDestination');
      const lost = await put(cz, e.id, { ...moved, destination: 'Springfield' });
      expect(lost.destinationCountryCode).toBeNull();
      expect(lost.destinationCountryResolution.reason).toBe('Ambiguous');
    });

    // SPEC, Travel entries rule 1: "Update of a travel entry is a full replace: omitted optional fields are
    // cleared unless stated otherwise per field above", and `destinationCountryCode` states no exception.
    it('issue 42: a supplied code the PUT omits is cleared; with no destination text the country is null', async () => {
      const e = await create(cz, { destinationCountryCode: 'DE' });
      expect(e.destinationCountryCode).toBe('DE');
      const got = (await cz.get(`${ENTRIES}/${e.id}`)).body;
      const { destinationCountryCode: _omitted, ...body } = got;
      const cleared = await put(cz, e.id, body);
      expect(cleared.destinationCountryCode).toBeNull();
      expect(cleared.destinationCountryResolution).toMatchObject({ source: 'Unresolved', reason: 'NoDestination' });
      expect((await cz.get(`${ENTRIES}/${e.id}`)).body).toEqual(cleared);
    });

    it('a supplied code the PUT omits is cleared and the fallback derives the country from the destination', async () => {
      const e = await create(cz, { destination: 'Wien', destinationCountryCode: 'SK' });
      const { destinationCountryCode: _omitted, ...body } = e;
      const same = await put(cz, e.id, body);
      expect(same.destinationCountryCode).toBe('AT');
      expect(same.destinationCountryResolution.source).toBe('DerivedFromDestination');
      const chosen = await put(cz, e.id, { ...same, destinationCountryCode: 'SK' });
      expect(chosen.destinationCountryResolution.source).toBe('Supplied');
      const { destinationCountryCode: _again, ...moved } = chosen;
      const brno = await put(cz, e.id, { ...moved, destination: 'Brno' });
      expect(brno.destinationCountryCode).toBe('CZ');
      // null clears it the same way.
      const back = await put(cz, e.id, { ...brno, destinationCountryCode: 'SK' });
      const nulled = await put(cz, e.id, { ...back, destinationCountryCode: null });
      expect(nulled.destinationCountryCode).toBe('CZ');
      expect(nulled.destinationCountryResolution.source).toBe('DerivedFromDestination');
    });

    it('a supplied code sent back unchanged (the GET body) is not a new choice: a no-op that keeps it', async () => {
      const e = await create(cz, { destination: 'Wien', destinationCountryCode: 'SK' });
      const got = (await cz.get(`${ENTRIES}/${e.id}`)).body;
      expect(await put(cz, e.id, got)).toEqual(got);
      // The destination edited, the supplied code echoed: still the caller's code, stored as sent.
      const moved = await put(cz, e.id, { ...got, destination: 'Brno' });
      expect(moved.destinationCountryCode).toBe('SK');
      expect(moved.destinationCountryResolution.source).toBe('Supplied');
    });

    it('the travel type follows the cleared code: DE omitted, no text, no rows → Domestic; rows abroad → Foreign', async () => {
      const e = await create(cz, { destinationCountryCode: 'DE' });
      expect(e.travelType).toBe('Foreign');
      const { destinationCountryCode: _code, travelType: _type, ...body } = (await cz.get(`${ENTRIES}/${e.id}`)).body;
      const home = await put(cz, e.id, body);
      expect(home).toMatchObject({ destinationCountryCode: null, travelType: 'Domestic' });

      const abroad = await create(cz, {
        destinationCountryCode: 'DE',
        perDiems: [{ countryCode: 'DE', departureTime: '2026-11-03T07:00:00Z', arrivalTime: '2026-11-03T19:00:00Z' }],
      });
      expect(abroad.travelType).toBe('Foreign');
      const { destinationCountryCode: _c, travelType: _t, ...rest } = (await cz.get(`${ENTRIES}/${abroad.id}`)).body;
      // perDiems echoed: the rows stay in Germany, so the trip is still foreign.
      expect(await put(cz, abroad.id, rest)).toMatchObject({ destinationCountryCode: null, travelType: 'Foreign' });
    });

    it('a code other than the derived one is supplied, whatever the text', async () => {
      const e = await create(cz, { destination: 'Wien' });
      const chosen = await put(cz, e.id, { ...e, destinationCountryCode: 'DE' });
      expect(chosen.destinationCountryCode).toBe('DE');
      expect(chosen.destinationCountryResolution.source).toBe('Supplied');
    });
  });

  describe('per-diems', () => {
    /** PL employee: Warsaw 06:00 → Austrian border 08:00 → back 22:00 → home 00:00 (local), 3 Nov 2026. */
    const PL_VIENNA = [
      { time: '2026-11-03T05:00:00Z', countryCode: 'PL' },
      { time: '2026-11-03T07:00:00Z', countryCode: 'AT' },
      { time: '2026-11-03T21:00:00Z', countryCode: 'PL' },
      { time: '2026-11-03T23:00:00Z', countryCode: 'PL' },
    ];

    it('a derived country drives the per-diem exactly as a supplied one: the itinerary decides, not the field', async () => {
      const derived = await create(pl, { destination: 'Wien' });
      const supplied = await create(pl, { destination: 'Wien', destinationCountryCode: 'AT' });
      expect(derived.destinationCountryCode).toBe('AT');
      const rows = async (id: string) => {
        const res = await pl.post(`${ENTRIES}/${id}/per-diems/from-itinerary`, { stops: PL_VIENNA });
        expect(res.status).toBe(200);
        return res.body;
      };
      const [a, b] = [await rows(derived.id), await rows(supplied.id)];
      // The same rows either way; the figure as entries-per-diems.test.ts derives it by hand (PL 2013
      // regulation: 14 h in Austria, over 12 h → the full 57 EUR; NBP 2026-11-03 EUR 4.2558 → 242.58 zł).
      expect(a.items).toEqual(b.items);
      expect(a.total).toBe(242.58);
      expect(a.items.map((r: { kind: string; countryCode: string }) => [r.kind, r.countryCode])).toEqual([
        ['Domestic', 'PL'],
        ['Foreign', 'AT'],
        ['Domestic', 'PL'],
      ]);
    });
  });
});
