import { randomUUID } from 'node:crypto';
import {
  forbidden,
  listPage,
  tenantOf,
  throwFieldErrors,
  type CallerContext,
  type FieldErrors,
  type ListRequest,
  withRevisionRetry,
} from '@travel/platform';
import { EDIT_ALL_ENTRIES, mayEditAll, mayReadAll } from '../domain/access';
import { addedCostCenters } from '../domain/allocations';
import { checkAllocationsCover } from '../domain/entry-total';
import type { PerDiem, PerDiemRowInput } from '../domain/per-diem-row';
import { minorDigitsOf } from '../domain/amounts';
import {
  EntryStatus,
  entryFields,
  formatEntryNumber,
  sameFields,
  storedFields,
  type EntryFields,
  type EntryInput,
  type EntryStatusValue,
  type TravelEntry,
} from '../domain/entry';
import { entryListErrors } from '../domain/limits';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import type { Expense, ExpenseInput } from '../domain/expense';
import { abandonClaims, prepareExpense, vehicleEvents, type Prepared } from './expense-writes';
import { EntryWrites } from './entry-writes';
import { toBaseCurrency } from './fx';
import { attachmentsStored, type AttachmentsApp, type UploadedFile } from './attachments';
import { delegatorsVia } from './delegators';
import { EntryAccess } from './entry-access';
import type { PerDiemPricer, PricedRows } from './per-diem-pricer';
import type { CurrencyConverter, DestinationCountries, EmployeeDirectory, VehicleDirectory } from './ports';
import { settleCountry, unresolvedWithoutPlaceData } from '../domain/destination-country';
import { settleTravelType } from '../domain/travel-type';
import { NO_POLICY, type PolicyJudge } from './expense-policy';

export interface EntryFilter {
  isRequest?: boolean;
  employeeId?: string;
  status?: EntryStatusValue;
  dateFrom?: string;
  dateTo?: string;
}

/** Files sent with a multipart create: checked with the body, their bytes stored only when the entry is. */
interface CreateUploads {
  files: UploadedFile[];
  errors: FieldErrors;
}

/** The attachments app, as a multipart create stages its files (docs/decisions/0171). */
export type AttachmentStaging = Pick<AttachmentsApp, 'checkFiles' | 'stage' | 'unstage'>;

export interface CreateEntryInput extends EntryInput {
  isRequest?: boolean;
  expenses?: ExpenseInput[];
  perDiems?: PerDiemRowInput[];
}

/** A PUT body: the entry's fields and, when sent, its per-diem rows (docs/decisions/0071). */
export interface UpdateEntryInput extends EntryInput {
  perDiems?: PerDiemRowInput[];
}

const NO_ROWS: PricedRows = { rows: [], errors: {} };

export class EntriesApp {
  /** Who may read and change an entry: the same check every use case on an entry's children makes (0168). */
  private readonly access: EntryAccess;
  private readonly writes: EntryWrites;

  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries' | 'nextEntrySequence'>,
    private readonly employees: EmployeeDirectory,
    private readonly fx: CurrencyConverter,
    private readonly vehicles: VehicleDirectory,
    private readonly attachments: AttachmentStaging,
    private readonly perDiems?: PerDiemPricer,
    private readonly countries: DestinationCountries = { derive: unresolvedWithoutPlaceData },
    /** The expense policy's findings, stored with every write (docs/decisions/0203). */
    private readonly policy: PolicyJudge = NO_POLICY,
  ) {
    this.access = new EntryAccess(repos, delegatorsVia(employees));
    this.writes = new EntryWrites(repos);
  }

  /** The caller's tenant's entries: every filter and insert through it names the tenant (0081). */
  private scope(caller: Pick<CallerContext, 'tenantId'>) {
    return this.repos.entries.of(tenantOf(caller));
  }

  /**
   * Everything a write must check outside the body itself, collected together: the employee, cost centers
   * the write adds, the advance in the base currency, and the allocation sums.
   */
  private async check(
    caller: CallerContext,
    fields: EntryFields,
    bodyErrors: FieldErrors,
    context: {
      checkEmployee: boolean;
      before: EntryFields['costCenterAllocations'];
      expenses: readonly Pick<Expense, 'amountInBaseCurrency'>[];
      prepared?: Prepared[];
      perDiems?: PricedRows;
    },
  ) {
    const perDiems = context.perDiems ?? NO_ROWS;
    const errors: FieldErrors[] = [bodyErrors, ...(context.prepared ?? []).map((p) => p.errors), perDiems.errors];
    const added = addedCostCenters(context.before, fields.costCenterAllocations);
    const [exists, chargeable, advance] = await Promise.all([
      context.checkEmployee ? this.employees.exists(caller.tenantId, fields.employeeId) : true,
      added.length ? this.employees.chargeable(caller.tenantId, fields.employeeId, added) : [],
      bodyErrors.advancePayment || bodyErrors.currencyCode
        ? undefined
        : toBaseCurrency(
            this.fx,
            caller,
            {
              amount: fields.advancePayment,
              currency: fields.currencyCode,
              date: fields.advancePaymentDate,
              manualRate: fields.manualAdvanceExchangeRate,
            },
            {
              amount: 'advancePayment',
              currency: 'currencyCode',
              date: 'advancePaymentDate',
              manualRate: 'manualAdvanceExchangeRate',
            },
          ),
    ]);
    if (!exists || chargeable === null) errors.push({ employeeId: ['must be an employee of this company'] });
    else if (added.length) {
      const ok = new Set(chargeable);
      fields.costCenterAllocations.forEach((a, i) => {
        if (added.includes(a.costCenterId) && !ok.has(a.costCenterId))
          errors.push({
            [`costCenterAllocations[${i}].costCenterId`]: [
              "must be an active cost center of this company that the entry's employee may charge",
            ],
          });
      });
    }
    if (advance) errors.push(advance.errors);
    // The whole an amount split must reach: expenses and per-diems (docs/decisions/0072).
    errors.push(
      checkAllocationsCover(
        fields.costCenterAllocations,
        context.expenses,
        perDiems.rows,
        minorDigitsOf(caller.baseCurrency),
      ),
    );
    // A missing or refused rate is EXCHANGE_RATE_UNAVAILABLE (validation-family body), whatever else failed.
    const rateProblem =
      advance?.error?.code === 'EXCHANGE_RATE_UNAVAILABLE' ||
      (context.prepared ?? []).some((p) => p.code) ||
      perDiems.code === 'EXCHANGE_RATE_UNAVAILABLE';
    throwFieldErrors(rateProblem ? 'EXCHANGE_RATE_UNAVAILABLE' : 'VALIDATION_FAILED', ...errors);
    return advance!.conversion!;
  }

  /**
   * A new entry with its nested expenses and per-diem rows, and the files of a multipart create (`files`,
   * parts `attachments`): checked with everything else, their bytes stored once all of it passed.
   */
  async create(caller: CallerContext, input: CreateEntryInput, files?: UploadedFile[]) {
    const uploads: CreateUploads | undefined = files && {
      files,
      errors: await this.attachments.checkFiles(files, 'attachments', 'attachments', false),
    };
    throwFieldErrors('VALIDATION_FAILED', entryListErrors(input)); // before a single nested row is priced or converted
    const { fields, errors } = entryFields(input, { employeeId: caller.employeeId, baseCurrency: caller.baseCurrency });
    if (fields.employeeId !== caller.employeeId && !mayEditAll(caller)) throw forbidden(EDIT_ALL_ENTRIES);
    // A supplied code is stored as sent; without one the fallback derives it (docs/decisions/0131).
    Object.assign(
      fields,
      await settleCountry(input.destinationCountryCode, fields, undefined, this.countries.derive, caller.market),
    );
    // Derived from where the trip goes when not sent; a contradiction is refused (docs/decisions/0190).
    const type = settleTravelType(input.travelType, {
      market: caller.market,
      destinationCountryCode: fields.destinationCountryCode,
      rowCountries: (input.perDiems ?? []).map((r) => r.countryCode),
    });
    fields.travelType = type.travelType;
    Object.assign(errors, type.errors);
    // A new entry has no attachment yet that a nested expense could name as its receipt (0204).
    (input.expenses ?? []).forEach((x, i) => {
      if (x.receiptAttachmentIds?.length)
        errors[`expenses[${i}].receiptAttachmentIds`] = ['must be attachments of this entry; it has none yet'];
    });
    const now = new Date();
    const entryId = randomUUID();
    // Every nested expense is checked, priced and converted before anything is stored (all or nothing).
    const settled = await Promise.allSettled(
      (input.expenses ?? []).map((x, i) =>
        prepareExpense(
          { fx: this.fx, vehicles: this.vehicles },
          caller,
          x,
          { entryId, expenseId: randomUUID(), revision: 0, createdAt: now, prefix: `expenses[${i}].` },
          now,
        ),
      ),
    );
    const prepared = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const expenses = prepared.flatMap((p) => (p.expense ? [p.expense] : []));
    try {
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      // Nested per-diem rows: the engine re-runs the itinerary they describe (docs/decisions/0070).
      const perDiems =
        input.perDiems?.length && this.perDiems
          ? await this.perDiems.fromRows(caller, fields, input.perDiems)
          : NO_ROWS;
      // Nested expenses and rows are created like the single ones: none in a closed period (0207).
      await this.access.periods.refuseChanges(caller, {}, { expenses, perDiems: perDiems.rows });
      return await this.insert(caller, input, fields, errors, {
        entryId,
        now,
        prepared,
        expenses,
        perDiems,
        uploads,
      });
    } catch (err) {
      // Nothing was stored: the vehicles claimed for its Mileage rows are given back.
      await abandonClaims(this.vehicles, caller.tenantId, entryId, expenses);
      throw err;
    }
  }

  private async insert(
    caller: CallerContext,
    input: CreateEntryInput,
    fields: EntryFields,
    errors: FieldErrors,
    {
      entryId,
      now,
      prepared,
      expenses,
      uploads,
      perDiems,
    }: {
      entryId: string;
      now: Date;
      prepared: Prepared[];
      expenses: Expense[];
      perDiems: PricedRows;
      uploads?: CreateUploads;
    },
  ): Promise<TravelEntry> {
    const advance = await this.check(
      caller,
      fields,
      { ...errors, ...uploads?.errors },
      {
        checkEmployee: fields.employeeId !== caller.employeeId,
        before: [],
        expenses,
        prepared,
        perDiems,
      },
    );

    const isRequest = input.isRequest ?? false;
    // An order gets its number at once; a trip request only when it is authorized (SPEC, transitions).
    const entryNumber = isRequest
      ? ''
      : formatEntryNumber(
          now.getUTCFullYear(),
          await this.repos.nextEntrySequence(tenantOf(caller), now.getUTCFullYear()),
        );
    // Attachment bytes go in only once everything else has passed; a failed insert removes them again.
    const attachments = uploads ? await this.attachments.stage(caller.tenantId, entryId, uploads.files, now) : [];
    const entry: TravelEntry = {
      _id: entryId,
      tenantId: caller.tenantId,
      ...fields,
      entryNumber,
      isRequest,
      status: EntryStatus.Draft,
      // A trip request is in its authorization phase (1 PreApproval) from the start; an order in none yet.
      phase: isRequest ? 1 : null,
      isPaidOut: false,
      paidOutAt: null,
      baseCurrency: caller.baseCurrency,
      advancePaymentInBaseCurrency: advance.baseAmount,
      advancePaymentExchangeRateSource: advance.source,
      expenses,
      perDiems: perDiems.rows,
      attachments,
      createdAt: now,
      editedAt: now,
      deletedAt: null,
      // Segregation of duties: its creator never approves it, whoever it is for (docs/decisions/0105).
      createdByEmployeeId: caller.employeeId,
    };
    entry.policyFindings = await this.policy.findingsFor(caller, entry);
    const used = expenses.flatMap((x) => vehicleEvents(caller.tenantId, entryId, undefined, x, 'ExpenseRemoved', now));
    // The receipts sent with the entry are read like uploaded ones (docs/decisions/0200).
    const stored = attachmentsStored(caller, entryId, attachments, now);
    try {
      // Its attachments are announced in this write: the back-fill (0202) has nothing to do for it.
      await this.writes.create(tenantOf(caller), entry, now, { readingsAnnounced: true }, [...used, ...stored]);
    } catch (err) {
      if (uploads) await this.attachments.unstage(attachments);
      throw err;
    }
    return entry;
  }

  async get(caller: CallerContext, id: string): Promise<TravelEntry> {
    return this.access.readable(caller, id);
  }

  async list(caller: CallerContext, filter: EntryFilter, page: ListRequest) {
    const query: Record<string, unknown> = { deletedAt: null };
    // Without ReadAllEntries / EditAllEntries a caller lists only their own entries.
    const employeeId = filter.employeeId?.toLowerCase();
    if (!mayReadAll(caller)) {
      if (employeeId && employeeId !== caller.employeeId) query._id = { $in: [] };
      query.employeeId = caller.employeeId;
    } else if (employeeId) query.employeeId = employeeId;
    if (filter.isRequest !== undefined) query.isRequest = filter.isRequest;
    if (filter.status !== undefined) query.status = filter.status;
    if (filter.dateFrom || filter.dateTo)
      query.departureDate = {
        ...(filter.dateFrom ? { $gte: filter.dateFrom } : {}),
        ...(filter.dateTo ? { $lte: filter.dateTo } : {}),
      };
    return listPage<EntryDoc, EntryDoc>(this.scope(caller), query, page, { departureDate: -1, _id: 1 }, (d) => d);
  }

  /**
   * Full replace of the entry's own fields and allocations. Unchanged: nothing stored, no event. Changed:
   * one conditional single-document write with `entry.updated` in its outbox.
   */
  async update(caller: CallerContext, rawId: string, input: UpdateEntryInput): Promise<TravelEntry> {
    throwFieldErrors('VALIDATION_FAILED', entryListErrors({ perDiems: input.perDiems }));
    return withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, rawId);
      const { fields, errors } = entryFields(input, {
        employeeId: current.employeeId,
        baseCurrency: current.baseCurrency,
      });
      if (fields.employeeId !== current.employeeId)
        errors.employeeId = ['cannot be changed; create a new entry for another employee'];
      // Supplied, or derived: kept while the destination is unchanged and not supplied before, else derived
      // again; an omitted code is cleared (docs/decisions/0132, amended by issue 42).
      Object.assign(
        fields,
        await settleCountry(
          input.destinationCountryCode,
          fields,
          storedFields(current),
          this.countries.derive,
          caller.market,
        ),
      );
      // Omitted: derived again from the trip as the write leaves it; the stored type sent back unchanged
      // is not a choice; another contradicted by the trip is refused (docs/decisions/0190).
      const type = settleTravelType(
        input.travelType,
        {
          market: caller.market,
          destinationCountryCode: fields.destinationCountryCode,
          rowCountries: (input.perDiems ?? current.perDiems ?? []).map((r) => r.countryCode),
        },
        current.travelType,
      );
      fields.travelType = type.travelType;
      Object.assign(errors, type.errors);
      // perDiems omitted: kept; sent: a full replace of the rows' settings (docs/decisions/0071).
      const perDiems: PricedRows & { changed: boolean } = this.perDiems
        ? await this.perDiems.forUpdate(caller, current, fields, input.perDiems)
        : { ...NO_ROWS, rows: current.perDiems ?? [], changed: false };
      const unchanged = sameFields(fields, storedFields(current)) && !perDiems.changed;
      if (unchanged && Object.keys({ ...errors, ...perDiems.errors }).length === 0) return current;
      // Rows re-priced or replaced must not be dated in a closed period, before or after (0207).
      if (perDiems.changed)
        await this.access.periods.refuseChanges(caller, current, {
          expenses: current.expenses,
          perDiems: perDiems.rows,
        });
      const advance = await this.check(caller, fields, errors, {
        checkEmployee: false,
        before: current.costCenterAllocations ?? [],
        expenses: current.expenses ?? [],
        perDiems,
      });
      const rows: PerDiem[] = perDiems.rows;
      const set = {
        ...fields,
        advancePaymentInBaseCurrency: advance.baseAmount,
        advancePaymentExchangeRateSource: advance.source,
        ...(perDiems.changed ? { perDiems: rows } : {}),
        editedAt: new Date(),
      };
      // Cost centers and the policy in force may have changed: the findings are worked out again (0203).
      const after: TravelEntry = { ...current, ...set, perDiems: rows };
      const policyFindings = await this.policy.findingsFor(caller, after);
      const { entry } = await this.writes.apply(tenantOf(caller), current, {
        set: { ...set, policyFindings },
        announce: 'entry.updated',
        at: set.editedAt,
      });
      return entry;
    });
  }

  /** Soft delete of an unlocked entry (docs/decisions/0046): gone from reads and lists, no webhook. */
  async delete(caller: CallerContext, rawId: string): Promise<void> {
    await withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, rawId);
      // Deleting the entry removes its expenses and rows: none may be dated in a closed period (0207).
      await this.access.periods.refuseChanges(caller, current, {});
      const now = new Date();
      // A deleted entry no longer uses its vehicles: fleet is told through the same write.
      const released = (current.expenses ?? []).flatMap((x) =>
        vehicleEvents(caller.tenantId, current._id, x, undefined, 'EntryDeleted', now),
      );
      // No webhook: a deleted entry is gone from reads (0046); payouts and fleet hear of it.
      await this.writes.apply(tenantOf(caller), current, {
        set: { deletedAt: now },
        announce: null,
        at: now,
        also: released,
      });
      return true;
    });
  }
}
