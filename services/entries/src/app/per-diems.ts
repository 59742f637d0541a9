// Per-diem rows of a travel entry (issue 14): priced by the engine over an itinerary (from-itinerary) or
// over the itinerary nested rows describe (create, PUT: the entries app), converted into the base currency
// with the FX code expenses use, and stored inside the entry document (docs/decisions/0070-0072). The
// pricing itself is per-diem-pricer.ts.
import { AppError, throwIfInvalid, tenantOf, withRevisionRetry, type CallerContext } from '@travel/platform';
import { EntryWrites } from './entry-writes';
import { minorDigitsOf } from '../domain/amounts';
import { itineraryListErrors } from '../domain/limits';
import { checkAllocationsCover } from '../domain/entry-total';
import type { TravelEntry } from '../domain/entry';
import type { Expense } from '../domain/expense';
import type { PerDiem } from '../domain/per-diem-row';
import { typeAfterRows } from '../domain/travel-type';
import type { EntriesRepositories } from '../infra/repositories';
import type { EntryAccess } from './entry-access';
import type { FromItineraryInput, PerDiemPricer } from './per-diem-pricer';
import { NO_POLICY, type PolicyJudge } from './expense-policy';

/** POST /api/v1/travel-entries/{id}/per-diems/from-itinerary: one conditional write, one entry.updated. */
export class PerDiemsApp {
  constructor(
    repos: Pick<EntriesRepositories, 'entries'>,
    private readonly access: EntryAccess,
    private readonly pricer: PerDiemPricer,
    /** The expense policy's findings, stored with every write (docs/decisions/0203). */
    private readonly policy: PolicyJudge = NO_POLICY,
  ) {
    this.writes = new EntryWrites(repos);
  }

  private readonly writes: EntryWrites;

  async fromItinerary(caller: CallerContext, entryId: string, input: FromItineraryInput): Promise<TravelEntry> {
    throwIfInvalid(itineraryListErrors(input));
    return withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, entryId);
      if (input.employeeId !== undefined && input.employeeId.toLowerCase() !== current.employeeId)
        throw new AppError('VALIDATION_FAILED', undefined, {
          employeeId: ["must be the entry's employee (or omitted): their residency applies"],
        });
      const priced = await this.pricer.fromItinerary(caller, current, input);
      if (Object.keys(priced.errors).length)
        throw new AppError(priced.code ?? 'VALIDATION_FAILED', undefined, priced.errors);
      // The rows replaced and the rows priced: none dated in a closed period may change (0207).
      await this.access.periods.refuseChanges(caller, { perDiems: current.perDiems }, { perDiems: priced.rows });
      allocationsStillCover(current, current.expenses ?? [], priced.rows);
      const now = new Date();
      // Rows that go abroad make a Domestic entry Foreign: the call sends no type (docs/decisions/0190).
      const travelType = typeAfterRows(current.travelType, {
        market: caller.market,
        destinationCountryCode: current.destinationCountryCode ?? null,
        rowCountries: priced.rows.map((r) => r.countryCode),
      });
      const after: TravelEntry = { ...current, travelType, perDiems: priced.rows, editedAt: now };
      const policyFindings = await this.policy.findingsFor(caller, after);
      const { entry } = await this.writes.apply(tenantOf(caller), current, {
        set: { travelType, perDiems: priced.rows, policyFindings, editedAt: now },
        announce: 'entry.updated',
        at: now,
      });
      return entry;
    });
  }
}

/**
 * A child change (expenses, per-diems) moves the entry's total: amount-mode allocations that no longer add
 * up to it refuse the change with 409 `CONFLICT`, keyed `costCenterAllocations` (docs/decisions/0072).
 * Percentages always add up; an entry without allocations is not split.
 */
export function allocationsStillCover(
  entry: Pick<TravelEntry, 'costCenterAllocations' | 'baseCurrency'>,
  expenses: readonly Pick<Expense, 'amountInBaseCurrency'>[],
  perDiems: readonly Pick<PerDiem, 'amountInBaseCurrency'>[],
): void {
  const conflict = checkAllocationsCover(
    entry.costCenterAllocations ?? [],
    expenses,
    perDiems,
    minorDigitsOf(entry.baseCurrency),
  );
  if (Object.keys(conflict).length)
    throw new AppError(
      'CONFLICT',
      "The change moves the entry's total, and its cost-center amounts would no longer add up to it. Change the allocations first (PUT the entry with percentages or with the new amounts).",
      conflict,
    );
}
