import type { Market } from '@travel/platform';

/** reference-fx's two allow-lists of a company; the profile shows each as `enabledCountries` / `enabledCurrencies`. */
export type AllowListKind = 'countries' | 'currencies';

export interface Company {
  _id: string;
  tenantId: string;
  name: string;
  market: Market;
  baseCurrency: string;
  address: string | null;
  registrationNumber: string | null;
  vatNumber: string | null;
  enabledCountries: string[];
  enabledCurrencies: string[];
  /**
   * Per list, when the allow-list the profile shows was written in reference-fx (the `occurredAt` of its
   * `allow-list.updated` event); absent while the profile shows the lists of its creation (0184).
   */
  allowListsAppliedAt?: Partial<Record<AllowListKind, Date>>;
  createdAt: Date;
}

/** A company's allow-list as reference-fx stored it, and when. */
export interface AllowListUpdate {
  kind: AllowListKind;
  /** The codes as stored (sorted, each once, by reference-fx). */
  codes: string[];
  occurredAt: Date;
}

const FIELD_OF = { countries: 'enabledCountries', currencies: 'enabledCurrencies' } as const;

export type AllowListChange = Partial<Pick<Company, 'enabledCountries' | 'enabledCurrencies' | 'allowListsAppliedAt'>>;

/**
 * What the profile takes from an allow-list update (decision 0184), or null when it already shows that
 * list as written at the same time or later: events arrive out of order or twice, and the list written
 * last in reference-fx wins, whatever order they are applied in.
 */
export function allowListChange(
  company: Pick<Company, 'allowListsAppliedAt'>,
  update: AllowListUpdate,
): AllowListChange | null {
  const applied = company.allowListsAppliedAt?.[update.kind];
  if (applied && applied.getTime() >= update.occurredAt.getTime()) return null;
  return {
    [FIELD_OF[update.kind]]: [...update.codes],
    allowListsAppliedAt: { ...company.allowListsAppliedAt, [update.kind]: update.occurredAt },
  };
}
