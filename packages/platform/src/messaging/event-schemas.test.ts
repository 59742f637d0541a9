import { EVENT_ROUTING_KEYS } from '@travel/contracts';
import { assertValidEvent, eventProblems, InvalidEventError } from './event-schemas';
import { raiseEvent, toMessage } from './events';

const uuid = '0d7e7f0c-3a8e-4b5e-9c1e-8f2b1a6c5d40';
const at = '2026-10-07T12:00:00.000Z';
const employee = {
  id: 'e-1',
  firstName: 'Eva',
  lastName: 'Novak',
  position: null,
  departmentId: null,
  status: 'Active',
  isAccountOwner: false,
  isArchived: false,
  permissions: [],
  createdAt: at,
  editedAt: at,
};
const envelope = (type: string, data: unknown) => ({ id: uuid, type, tenantId: 't-1', occurredAt: at, data });

describe('event schemas', () => {
  it('compile, every one of them', () => {
    for (const key of EVENT_ROUTING_KEYS) expect(() => eventProblems(key, {})).not.toThrow();
  });

  it('accept an event as its producer raises it', () => {
    expect(eventProblems('employees.employee.updated', envelope('employee.updated', employee))).toEqual([]);
    expect(
      eventProblems(
        'entries.vehicle.released',
        envelope('vehicle.released', {
          vehicleId: uuid,
          entryId: uuid,
          expenseId: uuid,
          revision: 0,
          reason: 'EntryDeleted',
        }),
      ),
    ).toEqual([]);
  });

  it('refuse personal data in a webhook event, a missing DTO field, another type, and unknown routing keys', () => {
    expect(
      eventProblems('employees.employee.updated', envelope('employee.updated', { ...employee, email: 'a@b.example' })),
    ).toEqual(['/data must NOT have unevaluated properties']);
    const { lastName: _, ...noLastName } = employee;
    expect(eventProblems('employees.employee.updated', envelope('employee.updated', noLastName))).toEqual([
      "/data must have required property 'lastName'",
    ]);
    expect(eventProblems('employees.employee.updated', envelope('employee.created', employee))).toEqual([
      '/type must be equal to constant',
    ]);
    expect(eventProblems('employees.employee.fired', envelope('employee.fired', employee))).toEqual([
      'no schema for routing key employees.employee.fired in contracts/events/internal',
    ]);
    expect(() => assertValidEvent('employees.employee.updated', {})).toThrow(InvalidEventError);
  });
});

describe('raiseEvent', () => {
  it('types data by the schema of its routing key, and refuses a routing key the contract does not know', () => {
    const event = raiseEvent('fleet', 'vehicle.usage-refused', 't-1', {
      vehicleId: uuid,
      entryId: uuid,
      expenseId: uuid,
      revision: 2,
      reason: 'VehicleNotFound',
    });
    expect(event.routingKey).toBe('fleet.vehicle.usage-refused');
    expect(eventProblems(event.routingKey, toMessage(event))).toEqual([]);
    // The compiler refuses these (the expectations below only keep the calls from being unused).
    // @ts-expect-error: no schema for entries.entry.nope
    const unknown = raiseEvent('entries', 'entry.nope', 't-1', {});
    // @ts-expect-error: reason is not one of the schema's values
    const wrong = raiseEvent('fleet', 'vehicle.usage-refused', 't-1', { ...event.data, reason: 'Stolen' });
    expect([unknown.routingKey, wrong.routingKey]).toEqual(['entries.entry.nope', 'fleet.vehicle.usage-refused']);
  });
});
