import { randomUUID } from 'node:crypto';
import {
  AppError,
  invalidState,
  notFound,
  type CallerContext,
  type OutboxEvent,
  type TenantId,
  tenantOf,
  withRevisionRetry,
} from '@travel/platform';
import { sameExpenseFields, storedExpenseFields, type Expense, type ExpenseInput } from '../domain/expense';
import type { TravelEntry } from '../domain/entry';
import { allocationsStillCover } from './per-diems';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import type { EntryAccess } from './entry-access';
import { EntryWrites } from './entry-writes';
import { abandonClaims, checkExpense, prepareExpense, throwIfAny, vehicleEvents } from './expense-writes';
import type { CurrencyConverter, VehicleDirectory } from './ports';
import { correctedFields, type AttachmentReading, type ReadingOrigin } from '../domain/reading';
import {
  boundFieldsChanged,
  declarationDigest,
  declarationReason,
  type MissingReceiptDeclaration,
} from '../domain/receipt-declaration';
import { NO_POLICY, type PolicyJudge } from './expense-policy';
import type { PolicyFinding } from '../domain/policy-findings';

/** Where an expense create finds the reading its `fromReading` names (entries' projection, 0200). */
export interface ReadingLookup {
  get(tenantId: TenantId, attachmentId: string): Promise<AttachmentReading | null>;
}

/** A create's body: the expense fields and, optionally, the receipt whose reading they were confirmed from. */
export type ExpenseCreateInput = ExpenseInput & { fromReading?: string | null };

/**
 * One expense at a time. Every change is one conditional write of the entry document (its expense list,
 * `editedAt`, revision) with `entry.updated` and the vehicle events in its outbox.
 */
export class ExpensesApp {
  constructor(
    repos: Pick<EntriesRepositories, 'entries'>,
    private readonly access: EntryAccess,
    private readonly fx: CurrencyConverter,
    private readonly vehicles: VehicleDirectory,
    private readonly readings: ReadingLookup,
    /** The expense policy's findings, stored with every write (docs/decisions/0203). */
    private readonly policy: PolicyJudge = NO_POLICY,
  ) {
    this.writes = new EntryWrites(repos);
  }

  private readonly writes: EntryWrites;

  /**
   * The receipts an expense names (docs/decisions/0204): ids of this entry's attachments, lower-cased,
   * each once; another id is 400 under `receiptAttachmentIds`. Omitted (undefined): `kept`.
   */
  private receiptIds(entry: EntryDoc, sent: string[] | null | undefined, kept: string[]): string[] {
    if (sent === undefined) return kept;
    const ids = [...new Set((sent ?? []).map((x) => x.toLowerCase()))];
    const known = new Set((entry.attachments ?? []).map((a) => a._id));
    const unknown = ids.filter((x) => !known.has(x));
    if (unknown.length)
      throw new AppError('VALIDATION_FAILED', undefined, {
        receiptAttachmentIds: [`must be attachments of this entry (not: ${unknown.join(', ')})`],
      });
    return ids;
  }

  /**
   * The reading `fromReading` names (docs/decisions/0201): an attachment of this entry (else 400 under
   * `fromReading`) that has been read, Read or Unreadable (Pending: 409, there is nothing to confirm yet).
   */
  private async readingFor(caller: CallerContext, entry: EntryDoc, rawId: string): Promise<AttachmentReading> {
    const id = rawId.toLowerCase();
    if (!(entry.attachments ?? []).some((a) => a._id === id))
      throw new AppError('VALIDATION_FAILED', undefined, { fromReading: ['must be an attachment of this entry'] });
    const reading = await this.readings.get(tenantOf(caller), id);
    if (!reading || reading.entryId !== entry._id)
      throw invalidState('The reading of this attachment is still Pending; create the expense once it is read.');
    return reading;
  }

  private find(entry: EntryDoc, rawId: string): Expense {
    const id = rawId.toLowerCase();
    const expense = (entry.expenses ?? []).find((x) => x._id === id);
    if (!expense) throw notFound('expense');
    return expense;
  }

  /**
   * Stores the entry's new expense list at the revision read, raising entry.updated (+ vehicle events); a
   * lost race throws RevisionConflict (the attempt runs again).
   */
  private async save(
    caller: CallerContext,
    current: EntryDoc,
    expenses: Expense[],
    now: Date,
    extra: OutboxEvent[],
    /** The findings on `expenses`, when the caller judged them already. */
    findings?: PolicyFinding[],
  ) {
    // Amount-mode allocations must still add up to the new total (docs/decisions/0072): 409 otherwise.
    allocationsStillCover(current, expenses, current.perDiems ?? []);
    const next: TravelEntry = { ...current, expenses, editedAt: now };
    const policyFindings = findings ?? (await this.policy.findingsFor(caller, next));
    await this.writes.apply(tenantOf(caller), current, {
      set: { expenses, policyFindings, editedAt: now },
      announce: 'entry.updated',
      at: now,
      also: extra,
    });
    return true;
  }

  /** Saves, or gives back the vehicle claim of an expense that was not stored (lost race, failed write). */
  private async saveOrAbandon(
    caller: CallerContext,
    current: EntryDoc,
    expenses: Expense[],
    now: Date,
    events: OutboxEvent[],
    expense: Expense,
  ): Promise<Expense | undefined> {
    let saved = false;
    try {
      saved = await this.save(caller, current, expenses, now, events);
    } finally {
      if (!saved) await abandonClaims(this.vehicles, caller.tenantId, current._id, [expense]);
    }
    return saved ? expense : undefined;
  }

  /**
   * A vehicle sent on a non-mileage row is not stored, but one outside the company is still refused on
   * the single-expense endpoints (SPEC, Endpoints rule 3); fleet is asked without recording a use.
   */
  private async checkIgnoredVehicle(caller: CallerContext, input: ExpenseInput): Promise<void> {
    if (input.kind === 'Mileage' || !input.vehicleId) return;
    if (!(await this.vehicles.exists(caller.tenantId, input.vehicleId.toLowerCase())))
      throw new AppError('VALIDATION_FAILED', undefined, { vehicleId: ['must be a vehicle of this company'] });
  }

  async get(caller: CallerContext, entryId: string, expenseId: string): Promise<Expense> {
    return this.find(await this.access.readable(caller, entryId), expenseId);
  }

  async create(caller: CallerContext, entryId: string, body: ExpenseCreateInput): Promise<Expense> {
    const expenseId = randomUUID();
    const { fromReading, ...input } = body;
    return withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, entryId);
      const reading = fromReading ? await this.readingFor(caller, current, fromReading) : undefined;
      await this.checkIgnoredVehicle(caller, input);
      // Nothing dated in a closed period is created (0207): asked before a vehicle use is claimed.
      const listed = current.expenses ?? [];
      await this.access.periods.refuseChanges(caller, { expenses: listed }, { expenses: [...listed, input] });
      const now = new Date();
      const prepared = await prepareExpense(
        { fx: this.fx, vehicles: this.vehicles },
        caller,
        input,
        {
          entryId: current._id,
          expenseId,
          revision: 0,
          createdAt: now,
        },
        now,
      );
      throwIfAny([prepared]);
      // The receipt it was read from is its receipt, with any the body names (docs/decisions/0204).
      const named = this.receiptIds(current, input.receiptAttachmentIds, []);
      const receiptAttachmentIds = reading && !named.includes(reading._id) ? [reading._id, ...named] : named;
      const expense: Expense = reading
        ? { ...prepared.expense!, receiptReading: originOf(reading, prepared.expense!), receiptAttachmentIds }
        : { ...prepared.expense!, receiptAttachmentIds };
      const used = vehicleEvents(caller.tenantId, current._id, undefined, expense, 'ExpenseRemoved', now);
      return (await this.save(caller, current, [...(current.expenses ?? []), expense], now, used))
        ? expense
        : undefined;
    });
  }

  /**
   * Full replace. Unchanged writable fields: nothing stored, no event. Omitted `fuelUnitPriceOverride` and
   * `mileagePetrolGrade` re-price a Mileage row at the regulation's average (95 grade).
   */
  async update(caller: CallerContext, entryId: string, rawExpenseId: string, input: ExpenseInput): Promise<Expense> {
    return withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, entryId);
      const before = this.find(current, rawExpenseId);
      await this.checkIgnoredVehicle(caller, input);
      const checked = await checkExpense(this.vehicles, caller, input);
      const receiptAttachmentIds = this.receiptIds(
        current,
        input.receiptAttachmentIds,
        before.receiptAttachmentIds ?? [],
      );
      const sameReceipts = JSON.stringify(receiptAttachmentIds) === JSON.stringify(before.receiptAttachmentIds ?? []);
      if (
        Object.keys(checked.errors).length === 0 &&
        sameExpenseFields(checked.fields, storedExpenseFields(before)) &&
        sameReceipts
      )
        return before;
      throwIfAny([{ errors: checked.errors }]);
      // Neither the expense as it was nor as it would be may lie in a closed period (0207).
      await this.access.periods.refuseChanges(caller, { expenses: [before] }, { expenses: [checked.fields] });
      const now = new Date();
      const prepared = await prepareExpense(
        { fx: this.fx, vehicles: this.vehicles },
        caller,
        input,
        { entryId: current._id, expenseId: before._id, revision: before.revision + 1, createdAt: before.createdAt },
        now,
        checked.fields,
      );
      throwIfAny([prepared]);
      // Where it came from stays what it was: a later correction is the caller's, not the reading's. A
      // declaration stays while what it was made for does; a change of kind, date or amount voids it (0204).
      const declaration =
        before.missingReceiptDeclaration && !boundFieldsChanged(before, prepared.expense!)
          ? before.missingReceiptDeclaration
          : undefined;
      const expense: Expense = {
        ...prepared.expense!,
        ...(before.receiptReading ? { receiptReading: before.receiptReading } : {}),
        receiptAttachmentIds,
        ...(declaration ? { missingReceiptDeclaration: declaration } : {}),
      };
      const events = vehicleEvents(caller.tenantId, current._id, before, expense, 'VehicleChanged', now);
      const expenses = (current.expenses ?? []).map((x) => (x._id === before._id ? expense : x));
      return this.saveOrAbandon(caller, current, expenses, now, events, expense);
    });
  }

  /**
   * The entry's own employee declares, with their own key, that the expense's receipt is missing (issue 39
   * §4, docs/decisions/0204). Anyone else — an administrator with EditAllEntries, or a key issued by someone
   * else for the employee — is 403. Only where the policy in force requires a receipt the expense lacks and
   * accepts a declaration instead (else 409); replaces an earlier declaration. A child change: entry.updated.
   */
  async declareMissingReceipt(
    caller: CallerContext,
    entryId: string,
    rawExpenseId: string,
    body: { reason?: unknown },
  ): Promise<Expense> {
    const { reason, errors } = declarationReason(body?.reason);
    return withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, entryId);
      ownKeyOnly(caller, current.employeeId);
      const before = this.find(current, rawExpenseId);
      throwIfAny([], errors);
      if ((before.receiptAttachmentIds ?? []).length)
        throw invalidState('The expense names a receipt attachment; there is no missing receipt to declare.');
      const now = new Date();
      const unsigned = {
        reason: reason!,
        declaredByEmployeeId: caller.employeeId,
        apiKeyId: caller.apiKeyId,
        declaredAt: now,
      };
      const declaration: MissingReceiptDeclaration = { ...unsigned, digest: declarationDigest(before, unsigned) };
      const expense: Expense = { ...before, missingReceiptDeclaration: declaration };
      // Would the policy in force take it? Judged as if declared: a receipt finding left on it means no.
      const trial = { ...current, expenses: (current.expenses ?? []).map((x) => (x._id === before._id ? expense : x)) };
      const judge = await this.policy.judge(caller, current);
      const [findings, asIs] = [judge(trial), judge(current)];
      const needed = asIs.some((f) => f.check === 'ReceiptMissing' && f.expenseId === before._id);
      const stillMissing = findings.some((f) => f.check === 'ReceiptMissing' && f.expenseId === before._id);
      if (!needed)
        throw invalidState('The expense policy in force requires no receipt for this expense; nothing to declare.');
      if (stillMissing)
        throw invalidState(
          'The expense policy in force does not accept a declaration instead of this receipt; attach the receipt.',
        );
      return (await this.save(caller, current, trial.expenses, now, [], findings)) ? expense : undefined;
    });
  }

  /** Withdraws the declaration (the employee's own key, as for making one); none: 404. */
  async withdrawMissingReceipt(caller: CallerContext, entryId: string, rawExpenseId: string): Promise<void> {
    await withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, entryId);
      ownKeyOnly(caller, current.employeeId);
      const before = this.find(current, rawExpenseId);
      if (!before.missingReceiptDeclaration) throw notFound('missing-receipt declaration');
      const expense: Expense = { ...before, missingReceiptDeclaration: null };
      const expenses = (current.expenses ?? []).map((x) => (x._id === before._id ? expense : x));
      return (await this.save(caller, current, expenses, new Date(), [])) ? true : undefined;
    });
  }

  async delete(caller: CallerContext, entryId: string, rawExpenseId: string): Promise<void> {
    await withRevisionRetry('travel entry', async () => {
      const current = await this.access.writable(caller, entryId);
      const before = this.find(current, rawExpenseId);
      await this.access.periods.refuseChanges(caller, { expenses: [before] }, { expenses: [] });
      const now = new Date();
      const released = vehicleEvents(caller.tenantId, current._id, before, undefined, 'ExpenseRemoved', now);
      const expenses = (current.expenses ?? []).filter((x) => x._id !== before._id);
      return (await this.save(caller, current, expenses, now, released)) ? true : undefined;
    });
  }
}

/**
 * A declaration is the employee's own statement: their entry, their own key (docs/decisions/0204). A key an
 * administrator issued for them is not theirs alone (its issuer holds it too), nor is anyone else's.
 */
function ownKeyOnly(caller: CallerContext, entryEmployeeId: string): void {
  if (caller.employeeId !== entryEmployeeId || caller.keyIssuedByEmployeeId)
    throw new AppError(
      'FORBIDDEN',
      "Only the entry's own employee, with their own API key, declares a missing receipt.",
    );
}

/** What the expense keeps of the reading it was confirmed from: which one, and the fields corrected. */
function originOf(reading: AttachmentReading, expense: Expense): ReadingOrigin {
  return {
    attachmentId: reading._id,
    engine: reading.engine,
    readAt: reading.readAt,
    corrected: correctedFields(reading.fields, expense),
  };
}
