import { allowListChange, type AllowListUpdate } from './company';

const at = (iso: string) => new Date(iso);
const countries = (codes: string[], occurredAt: string): AllowListUpdate => ({
  kind: 'countries',
  codes,
  occurredAt: at(occurredAt),
});

describe('allowListChange (the profile follows the allow-lists, 0184)', () => {
  it('a profile showing its creation lists takes the update and remembers when it was written', () => {
    expect(allowListChange({}, countries(['AT', 'DE'], '2026-11-26T10:00:00.000Z'))).toEqual({
      enabledCountries: ['AT', 'DE'],
      allowListsAppliedAt: { countries: at('2026-11-26T10:00:00.000Z') },
    });
  });

  it('a newer list of a kind replaces the older one and keeps the other kind’s time', () => {
    const company = {
      allowListsAppliedAt: { countries: at('2026-11-26T10:00:00.000Z'), currencies: at('2026-11-26T09:00:00.000Z') },
    };
    expect(allowListChange(company, countries(['HR'], '2026-11-26T10:00:01.000Z'))).toEqual({
      enabledCountries: ['HR'],
      allowListsAppliedAt: { countries: at('2026-11-26T10:00:01.000Z'), currencies: at('2026-11-26T09:00:00.000Z') },
    });
  });

  it('an older event applied after a newer one changes nothing, nor does the same one again', () => {
    const company = { allowListsAppliedAt: { countries: at('2026-11-26T10:00:00.000Z') } };
    expect(allowListChange(company, countries(['SK'], '2026-11-26T09:59:59.999Z'))).toBeNull();
    expect(allowListChange(company, countries(['SK'], '2026-11-26T10:00:00.000Z'))).toBeNull();
  });

  it('each kind is ordered on its own: an older currency list is still applied after a newer country list', () => {
    const company = { allowListsAppliedAt: { countries: at('2026-11-26T10:00:00.000Z') } };
    const update: AllowListUpdate = { kind: 'currencies', codes: ['EUR'], occurredAt: at('2026-11-26T08:00:00.000Z') };
    expect(allowListChange(company, update)).toEqual({
      enabledCurrencies: ['EUR'],
      allowListsAppliedAt: { countries: at('2026-11-26T10:00:00.000Z'), currencies: at('2026-11-26T08:00:00.000Z') },
    });
  });
});
