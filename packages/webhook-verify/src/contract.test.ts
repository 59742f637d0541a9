// The SDK carries its own copy of the contract (it is published alone): its event types are generated
// from openapi.yaml (event-types.ts), and its hand-documented DTO interfaces must name exactly the
// contract's fields. A field added to or removed from the contract fails the type check here.
import { WEBHOOK_EVENT_TYPES as CONTRACT_EVENT_TYPES, type PublicSchema } from '../../../contracts/src';
import { WEBHOOK_EVENT_TYPES, type EmployeeWebhookDto, type TravelEntryWebhookDto } from './types';

/** The named fields of a type, without an index signature. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const entryFields: Same<KnownKeys<TravelEntryWebhookDto>, KnownKeys<PublicSchema<'TravelEntryWebhookDto'>>> = true;
const employeeFields: Same<KnownKeys<EmployeeWebhookDto>, KnownKeys<PublicSchema<'EmployeeWebhookDto'>>> = true;

describe('the SDK and the contract', () => {
  it('know the same event types, in the same order', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...CONTRACT_EVENT_TYPES]);
  });

  it('name the same DTO fields (checked by the compiler)', () => {
    expect([entryFields, employeeFields]).toEqual([true, true]);
  });
});
