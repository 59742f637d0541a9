// Use cases of the reference data: the municipality lists, the statutory rate table of the caller's
// market, and the company's allow-lists.
import { tenantOf, type CallerContext, type PageRequest } from '@travel/platform';
import { defaultEnabled, ratesInForce, type RatesInForce } from '@travel/regulations';
import { normalizeList, type AllowListKind } from '../domain/allow-lists';
import { CROATIAN_MUNICIPALITIES, SLOVENIAN_MUNICIPALITIES } from '@travel/places';
import { pageOf } from '../domain/municipalities';
import type { AllowListsStore } from '../infra/allow-lists-store';

export interface AllowList {
  codes: string[];
  isDefault: boolean;
  editedAt: Date | null;
}

export class ReferenceDataApp {
  constructor(
    private readonly allowLists: AllowListsStore,
    private readonly today: () => string = () => new Date().toISOString().slice(0, 10),
  ) {}

  slovenianMunicipalities(q: string | undefined, page: PageRequest) {
    return pageOf(SLOVENIAN_MUNICIPALITIES, q, page);
  }

  croatianMunicipalities(q: string | undefined, page: PageRequest) {
    return pageOf(CROATIAN_MUNICIPALITIES, q, page);
  }

  /** The statutory rates of the caller's market on `date` (today, UTC, when absent), for `country` or all. */
  perDiemRates(caller: CallerContext, country: string | undefined, date: string | undefined): RatesInForce {
    return ratesInForce(caller.market, date ?? this.today(), country ?? null);
  }

  async getAllowList(caller: CallerContext, kind: AllowListKind): Promise<AllowList> {
    const doc = await this.allowLists.get(tenantOf(caller), kind);
    return doc
      ? { codes: doc.codes, isDefault: false, editedAt: doc.editedAt }
      : { codes: defaultEnabled(kind, caller.market), isDefault: true, editedAt: null };
  }

  async putAllowList(caller: CallerContext, kind: AllowListKind, codes: string[]): Promise<AllowList> {
    const tenantId = tenantOf(caller);
    const list = normalizeList(kind, codes);
    // A PUT that changes nothing is a no-op: same editedAt, no event (a GET body PUT back, decision 0035).
    const current = await this.allowLists.get(tenantId, kind);
    if (current && current.codes.length === list.length && current.codes.every((c, i) => c === list[i]))
      return { codes: current.codes, isDefault: false, editedAt: current.editedAt };
    const doc = await this.allowLists.put(tenantId, kind, list, caller.employeeId);
    return { codes: doc.codes, isDefault: false, editedAt: doc.editedAt };
  }
}
