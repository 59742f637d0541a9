// The travel type from where the trip goes (issue 34: "a trip whose destination or itinerary lies abroad
// is a foreign trip on its papers"; docs/decisions/0190).
import { countriesAbroad, derivedTravelType, settleTravelType, typeAfterRows, type TripCountries } from './travel-type';

const trip = (destinationCountryCode: string | null, ...rowCountries: string[]): TripCountries => ({
  market: 'CZ',
  destinationCountryCode,
  rowCountries,
});

describe('derivedTravelType', () => {
  it.each([
    ['a destination abroad (Vienna)', trip('AT'), 'Foreign'],
    ['a foreign per-diem row, the destination unresolved', trip(null, 'CZ', 'AT', 'CZ'), 'Foreign'],
    ['a foreign row, the destination at home', trip('CZ', 'CZ', 'SK'), 'Foreign'],
    ['Kosovo (XK)', trip('XK'), 'Foreign'],
    ['everything at home', trip('CZ', 'CZ'), 'Domestic'],
    ['nothing known', trip(null), 'Domestic'],
  ] as const)('%s → %s', (_, t, type) => {
    expect(derivedTravelType(t)).toBe(type);
  });

  it('names the countries abroad, each once, destination first; codes the product does not know are no evidence', () => {
    expect(countriesAbroad(trip('AT', 'CZ', 'DE', 'AT', 'cz', 'ZZ'))).toEqual(['AT', 'DE']);
  });
});

describe('settleTravelType', () => {
  it('omitted: derived, on a create and on an update alike (a full replace keeps nothing unasked)', () => {
    expect(settleTravelType(undefined, trip('AT'))).toEqual({ travelType: 'Foreign', errors: {} });
    expect(settleTravelType(undefined, trip('CZ'), 'Foreign')).toEqual({ travelType: 'Domestic', errors: {} });
  });

  it('Domestic for a trip abroad is refused, keyed travelType, naming the countries', () => {
    const { errors } = settleTravelType('Domestic', trip('AT', 'CZ', 'AT', 'DE'));
    expect(Object.keys(errors)).toEqual(['travelType']);
    expect(errors.travelType![0]).toMatch(/AT, DE/);
    // On an update, a Domestic sent over a stored Foreign is a choice too: refused.
    expect(settleTravelType('Domestic', trip(null, 'PL'), 'Foreign').errors.travelType).toHaveLength(1);
  });

  it('Foreign is kept whatever the rows say: domestic rows do not prove the trip stayed at home', () => {
    expect(settleTravelType('Foreign', trip('CZ', 'CZ'))).toEqual({ travelType: 'Foreign', errors: {} });
    expect(settleTravelType('Domestic', trip('CZ', 'CZ'))).toEqual({ travelType: 'Domestic', errors: {} });
  });

  it('the stored type sent back unchanged (a GET body) is not a choice: derived again when the trip went abroad', () => {
    expect(settleTravelType('Domestic', trip('AT'), 'Domestic')).toEqual({ travelType: 'Foreign', errors: {} });
    expect(settleTravelType('Domestic', trip('CZ'), 'Domestic')).toEqual({ travelType: 'Domestic', errors: {} });
    expect(settleTravelType('Foreign', trip('CZ'), 'Foreign')).toEqual({ travelType: 'Foreign', errors: {} });
  });
});

describe('typeAfterRows (from-itinerary sends no type)', () => {
  it('rows abroad make a Domestic entry Foreign; a Foreign entry stays Foreign', () => {
    expect(typeAfterRows('Domestic', trip('CZ', 'CZ', 'AT'))).toBe('Foreign');
    expect(typeAfterRows('Domestic', trip('CZ', 'CZ'))).toBe('Domestic');
    expect(typeAfterRows('Foreign', trip('CZ', 'CZ'))).toBe('Foreign');
  });
});
