import type { FieldErrors } from '@travel/platform';
import { isCalendarDate } from './cost';
import { addFieldError, optionalText } from '@travel/text-rules';
import { checkItems } from '@travel/platform/src/limits';
import { checkWholeNumber, MAX_REMIND_DAYS_BEFORE, TEXT_MAX_LENGTH } from './limits';

// Vehicle deadlines (issue 11): registration, technical inspection, insurance, service, vignette or a
// custom one; whom to remind by e-mail and how many days before. Pure rules: no I/O.

export const DEADLINE_KINDS = [
  'Registration',
  'TechnicalInspection',
  'Insurance',
  'Service',
  'Vignette',
  'Custom',
] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];

export const DEFAULT_REMIND_DAYS_BEFORE = 14;
export const MAX_RECIPIENTS = 20;

export interface DeadlineFields {
  kind: DeadlineKind;
  /** Required for a Custom deadline; optional otherwise. */
  title: string | null;
  dueDate: string;
  note: string | null;
  remindEmployeeIds: string[];
  remindDaysBefore: number;
}

export interface Deadline extends DeadlineFields {
  _id: string;
  tenantId: string;
  vehicleId: string;
  createdAt: Date;
  editedAt: Date;
  lastReminderSentAt: Date | null;
  /** The day the reminder is due (`dueDate - remindDaysBefore`), or null when none is pending. */
  nextReminderOn: string | null;
  /** `dueDate/remindDaysBefore` of the last reminder sent: the same pair is never reminded twice. */
  remindedFor: string | null;
}

export interface DeadlineWrite {
  kind: DeadlineKind;
  title?: string | null;
  dueDate: string;
  note?: string | null;
  remindEmployeeIds?: string[];
  remindDaysBefore?: number;
}

/** Fields of a create or full replace: omitted recipients are none, omitted days-before the default. */
export function deadlineFields(input: DeadlineWrite): { fields: DeadlineFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const title = optionalText(input.title, false, TEXT_MAX_LENGTH.deadlineTitle);
  addFieldError(errors, 'title', title.problem);
  if (input.kind === 'Custom' && !title.value) addFieldError(errors, 'title', 'is required for a Custom deadline');
  if (!isCalendarDate(input.dueDate)) addFieldError(errors, 'dueDate', 'must be a calendar date yyyy-MM-dd');
  const note = optionalText(input.note, true, TEXT_MAX_LENGTH.note);
  addFieldError(errors, 'note', note.problem);
  checkWholeNumber(errors, 'remindDaysBefore', input.remindDaysBefore, MAX_REMIND_DAYS_BEFORE);
  checkItems(errors, 'remindEmployeeIds', input.remindEmployeeIds, Infinity); // a list, whatever its length
  const listed = Array.isArray(input.remindEmployeeIds) ? input.remindEmployeeIds : [];
  const remindEmployeeIds = [...new Set(listed.map((id) => String(id).toLowerCase()))];
  if (remindEmployeeIds.length > MAX_RECIPIENTS)
    addFieldError(errors, 'remindEmployeeIds', `at most ${MAX_RECIPIENTS} distinct employees`);
  return {
    fields: {
      kind: input.kind,
      title: title.value,
      dueDate: input.dueDate,
      note: note.value,
      remindEmployeeIds,
      remindDaysBefore: input.remindDaysBefore ?? DEFAULT_REMIND_DAYS_BEFORE,
    },
    errors,
  };
}

const reminderKey = (f: Pick<DeadlineFields, 'dueDate' | 'remindDaysBefore'>) => `${f.dueDate}/${f.remindDaysBefore}`;

/** `yyyy-MM-dd` minus whole days, in UTC (calendar arithmetic, no time zones). */
export function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/**
 * When the next reminder is due: none without recipients, none when this due date and lead time were
 * already reminded (an edit of the note does not send it again; moving the due date does).
 */
export function nextReminderOn(fields: DeadlineFields, remindedFor: string | null): string | null {
  if (fields.remindEmployeeIds.length === 0) return null;
  if (remindedFor === reminderKey(fields)) return null;
  return daysBefore(fields.dueDate, fields.remindDaysBefore);
}

export const remindedForOf = reminderKey;

const KIND_LABEL: Record<DeadlineKind, string> = {
  Registration: 'Registration',
  TechnicalInspection: 'Technical inspection',
  Insurance: 'Insurance',
  Service: 'Service',
  Vignette: 'Vignette',
  Custom: 'Deadline',
};

/** The reminder e-mail (plain text): what is due, for which vehicle, when. */
export function reminderMessage(
  d: Pick<Deadline, 'kind' | 'title' | 'dueDate' | 'note'>,
  vehicle: { name: string; licensePlate: string | null },
  today: string,
): { subject: string; text: string } {
  const what = d.title ? `${KIND_LABEL[d.kind]}: ${d.title}` : KIND_LABEL[d.kind];
  const car = vehicle.licensePlate ? `${vehicle.name} (${vehicle.licensePlate})` : vehicle.name;
  const when = d.dueDate < today ? `was due on ${d.dueDate}` : `is due on ${d.dueDate}`;
  return {
    subject: `${what} for ${car} ${when}`,
    text: [`${what} for ${car} ${when}.`, d.note ? `\nNote: ${d.note}` : '', '\n— Travel-expense fleet reminders'].join(
      '',
    ),
  };
}
