// What a create and an update store as the destination country (docs/decisions/0131, 0132): the issue's
// rule (a supplied code is stored as sent, the fallback skipped) and the update rule of decision 0132 as
// amended by issue 42 (an omitted code is cleared: the update is a full replace).
import type { CountryResolution, DerivedCountry } from '@travel/places';
import { settleCountry, storedResolution, type DeriveCountry } from './destination-country';

const derivedFrom = (text: string, code: string): DerivedCountry => ({
  countryCode: code,
  resolution: { source: 'DerivedFromDestination', reason: null, candidates: [], detail: `${code} from ${text}` },
});
/** A deriver over a fixed table, recording what it was asked. */
function deriver(table: Record<string, string>) {
  const asked: (string | null)[] = [];
  const derive: DeriveCountry = async ({ destination }) => {
    asked.push(destination);
    const code = destination ? table[destination] : undefined;
    return code
      ? derivedFrom(destination!, code)
      : {
          countryCode: null,
          resolution: { source: 'Unresolved', reason: 'Unknown', candidates: [], detail: 'unknown' },
        };
  };
  return { derive, asked };
}
const place = (destination: string | null) => ({ destination, destinationPlaceId: null });
const SUPPLIED: CountryResolution = {
  source: 'Supplied',
  reason: null,
  candidates: [],
  detail: 'Supplied with the entry; stored as sent.',
};

describe('settleCountry on a create', () => {
  it('a supplied code is stored as sent and the fallback is skipped, whatever the text says', async () => {
    const { derive, asked } = deriver({ Wien: 'AT' });
    const settled = await settleCountry('SK', place('Wien'), undefined, derive, 'CZ');
    expect(settled).toEqual({ destinationCountryCode: 'SK', destinationCountryResolution: SUPPLIED });
    expect(asked).toEqual([]);
  });

  it.each([undefined, null])('code %s: derived from the destination', async (sent) => {
    const { derive } = deriver({ Wien: 'AT' });
    expect(await settleCountry(sent, place('Wien'), undefined, derive, 'CZ')).toEqual({
      destinationCountryCode: 'AT',
      destinationCountryResolution: derivedFrom('Wien', 'AT').resolution,
    });
  });
});

describe('settleCountry on an update', () => {
  const { derive, asked } = deriver({ Wien: 'AT', Brno: 'CZ' });
  const derivedWien = {
    ...place('Wien'),
    destinationCountryCode: 'AT',
    destinationCountryResolution: derivedFrom('Wien', 'AT').resolution,
  };
  const suppliedWien = { ...place('Wien'), destinationCountryCode: 'SK', destinationCountryResolution: SUPPLIED };
  beforeEach(() => asked.splice(0));

  it('the destination changed, no code sent, the stored code derived: derived again', async () => {
    const settled = await settleCountry(undefined, place('Brno'), derivedWien, derive, 'CZ');
    expect(settled.destinationCountryCode).toBe('CZ');
    expect(settled.destinationCountryResolution?.source).toBe('DerivedFromDestination');
  });

  it('the GET body sent back with a changed destination: the derived code it repeats is not a choice', async () => {
    const settled = await settleCountry('AT', place('Brno'), derivedWien, derive, 'CZ');
    expect(settled.destinationCountryCode).toBe('CZ');
  });

  it('the destination unchanged: the stored derivation stays, nothing derived', async () => {
    expect(await settleCountry('AT', place('Wien'), derivedWien, derive, 'CZ')).toEqual({
      destinationCountryCode: 'AT',
      destinationCountryResolution: derivedWien.destinationCountryResolution,
    });
    expect(await settleCountry(undefined, place('Wien'), derivedWien, derive, 'CZ')).toEqual({
      destinationCountryCode: 'AT',
      destinationCountryResolution: derivedWien.destinationCountryResolution,
    });
    expect(asked).toEqual([]);
  });

  it('a supplied code omitted is cleared (a full replace, SPEC rule 1): derived from the destination', async () => {
    const stored = (d: DerivedCountry) => ({
      destinationCountryCode: d.countryCode,
      destinationCountryResolution: d.resolution,
    });
    expect(await settleCountry(undefined, place('Brno'), suppliedWien, derive, 'CZ')).toEqual(
      stored(derivedFrom('Brno', 'CZ')),
    );
    // The destination unchanged: still derived, the supplied code is not kept.
    expect(await settleCountry(undefined, place('Wien'), suppliedWien, derive, 'CZ')).toEqual(
      stored(derivedFrom('Wien', 'AT')),
    );
    expect(asked).toEqual(['Brno', 'Wien']);
  });

  it('a supplied code omitted with no destination: null, NoDestination as the deriver says', async () => {
    const settled = await settleCountry(undefined, place(null), { ...suppliedWien, destination: null }, derive, 'CZ');
    expect(settled.destinationCountryCode).toBeNull();
    expect(settled.destinationCountryResolution?.source).toBe('Unresolved');
  });

  it('a supplied code sent with null: cleared the same way', async () => {
    expect((await settleCountry(null, place('Brno'), suppliedWien, derive, 'CZ')).destinationCountryCode).toBe('CZ');
  });

  it('a supplied code sent back unchanged (the GET body): kept, nothing derived', async () => {
    expect(await settleCountry('SK', place('Brno'), suppliedWien, derive, 'CZ')).toEqual({
      destinationCountryCode: 'SK',
      destinationCountryResolution: SUPPLIED,
    });
    expect(asked).toEqual([]);
  });

  it('a code other than the stored derived one is supplied', async () => {
    expect(await settleCountry('DE', place('Wien'), derivedWien, derive, 'CZ')).toEqual({
      destinationCountryCode: 'DE',
      destinationCountryResolution: SUPPLIED,
    });
  });
});

describe('storedResolution', () => {
  it('an entry stored before the fallback: Supplied with a code, null without one', () => {
    expect(storedResolution({ destinationCountryCode: 'AT' })).toEqual(SUPPLIED);
    expect(storedResolution({ destinationCountryCode: null })).toBeNull();
  });
});
