// The company's enabled countries and currencies (docs/decisions/0027): a company starts with its
// market's defaults (`defaultEnabled` of @travel/regulations, decision 0174); a caller with ManageCompanyData replaces a list as a whole. Entries and expenses
// in a country or currency that is not enabled are refused by the contexts that take them.
import { FieldErrorCollector } from '@travel/platform/src/errors';
import { itemsProblem } from '@travel/platform/src/limits';
import { isCurrency } from '@travel/money';
import { isCountryCode, type AllowListKind } from '@travel/regulations';

export type { AllowListKind };

/** The body's property for each list (what GET returns and PUT takes). */
export const FIELD: Record<AllowListKind, 'countryCodes' | 'currencyCodes'> = {
  countries: 'countryCodes',
  currencies: 'currencyCodes',
};

/** Codes in one list: the contract's `maxItems` (docs/decisions/0107), held here too. */
export const MAX_ALLOW_LIST_CODES = 300;

/**
 * A list as stored: at most MAX_ALLOW_LIST_CODES codes, every one a code the product knows (ISO 3166-1
 * alpha-2 from @travel/regulations, ISO 4217 from @travel/money: the lists the contract's enums hold),
 * duplicates once, sorted. An unknown code is 400 VALIDATION_FAILED under `countryCodes[i]` /
 * `currencyCodes[i]`, a longer list under `countryCodes` / `currencyCodes`. An empty list is allowed: it
 * enables nothing.
 */
export function normalizeList(kind: AllowListKind, codes: string[]): string[] {
  const known = kind === 'countries' ? isCountryCode : isCurrency;
  const errors = new FieldErrorCollector();
  const tooMany = itemsProblem(codes, MAX_ALLOW_LIST_CODES);
  if (tooMany) {
    errors.add(FIELD[kind], tooMany);
    errors.throwIfAny();
  }
  codes.forEach((code, i) => {
    if (!known(code)) {
      errors.add(
        `${FIELD[kind]}[${i}]`,
        kind === 'countries'
          ? `${code} is not a country code the product knows (ISO 3166-1 alpha-2, or XK for Kosovo)`
          : `${code} is not an ISO 4217 currency code`,
      );
    }
  });
  errors.throwIfAny();
  return [...new Set(codes)].sort();
}
