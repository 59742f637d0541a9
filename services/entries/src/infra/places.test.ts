// The wired place data: GeoNames plus the official HR and SI municipality lists of the reference
// endpoints (issue 22, section 3: the municipality lists resolve domestic places).
import { OFFICIAL_PLACES } from '@travel/places';
import { OfflinePlaces } from './places';

describe('OfflinePlaces', () => {
  const places = new OfflinePlaces();
  beforeAll(() => places.load());
  const derive = (destination: string, homeCountry = 'CZ') =>
    places.derive({ destination, destinationPlaceId: null, homeCountry });

  it.each([
    ['Zagreb', 'HR'],
    ['ČAKOVEC', 'HR'],
    ['Klinča Sela', 'HR'],
    ['Ljubljana', 'SI'],
    ['Capodistria', 'SI'],
    ['Wien', 'AT'],
    ['Brno', 'CZ'],
    ['Bratislava', 'SK'],
    ['Kraków', 'PL'],
    ['Krakow', 'PL'],
  ])('%s → %s', async (text, country) => {
    expect((await derive(text)).countryCode).toBe(country);
  });

  it("every municipality of an HR or SI company's own list is the domestic place", async () => {
    for (const m of OFFICIAL_PLACES)
      expect([m.name, (await derive(m.name, m.countryCode)).countryCode]).toEqual([m.name, m.countryCode]);
  });

  it('for a company of another market, a municipality name is never unknown (found, or said to be ambiguous)', async () => {
    for (const m of OFFICIAL_PLACES) expect((await derive(m.name, 'PL')).resolution.reason).not.toBe('Unknown');
  });

  it("Gradac: an HR company's Dalmatian town; for a CZ company Graz, by its old Croatian name", async () => {
    expect((await derive('Gradac', 'HR')).countryCode).toBe('HR');
    expect((await derive('Gradac', 'CZ')).countryCode).toBe('AT');
  });
});
