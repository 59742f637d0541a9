import { WEBHOOK_EVENT_TYPES } from './event-types';

// The list is a generated copy of the contract's (event-types.ts, npm run contracts:generate).
export { WEBHOOK_EVENT_TYPES };

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type EntryEventType = Extract<WebhookEventType, `entry.${string}`>;
export type EmployeeEventType = Extract<WebhookEventType, `employee.${string}`>;

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Webhook DTOs are append-only within v1: new non-personal fields may appear at any time.
 * The index signature keeps such fields visible (as `unknown`) instead of pretending they don't exist.
 */
interface OpenDto {
  [field: string]: unknown;
}

/** Summary of a travel entry. Never carries expense, per-diem or cost-center detail, nor free text. */
export interface TravelEntryWebhookDto extends OpenDto {
  id: string;
  /** Empty string while the entry is still a trip request; issued when the trip is authorized. */
  entryNumber: string;
  employeeId: string;
  /** `yyyy-MM-dd` */
  departureDate: string;
  /** `yyyy-MM-dd` */
  returnDate: string;
  /** Workflow status serialized as an integer. */
  status: number;
  /** 1 = PreApproval (trip being authorized), 0 = Standard (settlement approval), null = not in a workflow. */
  phase: 0 | 1 | null;
  /** True while a trip is awaiting authorization. */
  isRequest: boolean;
  /** True whenever the document is closed to writes. */
  isLocked: boolean;
  isPaidOut: boolean;
  /** ISO 8601 UTC, null until paid out. */
  paidOutAt: string | null;
  /** In the request currency (`currencyCode`). */
  advancePayment: number;
  currencyCode: string;
  advancePaymentInBaseCurrency: number;
  /** ISO 8601 UTC */
  createdAt: string;
  /** ISO 8601 UTC */
  editedAt: string;
  /**
   * Orders the changes of one entry (`id`): higher is newer, the same on every retry; gaps are normal.
   * Keep the highest you have seen and ignore an event at or below it. Absent only on deliveries of
   * changes made before 2026-11-30 (their retries send the stored bytes).
   */
  sequence?: number;
}

/** Atomic permission flags known today. Others may appear: keep them when writing permissions back. */
export type KnownCompanyPermission = 'ManageVehicles' | 'ManageCompanyData' | 'EditAllEntries' | 'ReadAllEntries';
// `string & {}` keeps editor completion for the known names while accepting any flag.
export type CompanyPermission = KnownCompanyPermission | (string & {});

/** Summary of an employee. Never carries e-mail, phone, address, tax id or bank details. */
export interface EmployeeWebhookDto extends OpenDto {
  id: string;
  firstName: string;
  lastName: string;
  position: string | null;
  departmentId: string | null;
  status: 'Active' | 'Inactive';
  isAccountOwner: boolean;
  isArchived: boolean;
  permissions: CompanyPermission[];
  /** ISO 8601 UTC */
  createdAt: string;
  /** ISO 8601 UTC */
  editedAt: string;
}

/** `evt_` followed by the event GUID as 32 lowercase hex characters. */
export type EnvelopeId = `evt_${string}`;

interface EnvelopeOf<T extends WebhookEventType, D> {
  id: EnvelopeId;
  type: T;
  /** ISO 8601 UTC: when the event was raised, not when it was delivered. */
  createdAt: string;
  data: D;
}

// Mapped then indexed so each event type becomes its own union member and `switch (e.type)` narrows `data`.
export type EntryWebhookEnvelope = { [T in EntryEventType]: EnvelopeOf<T, TravelEntryWebhookDto> }[EntryEventType];
export type EmployeeWebhookEnvelope = {
  [T in EmployeeEventType]: EnvelopeOf<T, EmployeeWebhookDto>;
}[EmployeeEventType];

/** The POST body, discriminated on `type`. */
export type WebhookEnvelope = EntryWebhookEnvelope | EmployeeWebhookEnvelope;

/** The envelope for one event type, e.g. `WebhookEnvelopeFor<'entry.approved'>`. */
export type WebhookEnvelopeFor<T extends WebhookEventType> = Extract<WebhookEnvelope, { type: T }>;
