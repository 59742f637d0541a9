import type { DomainEvent } from '@travel/platform';
import { envelopeBytes } from './envelope';

const EVENT_ID = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';
const EVENT_HEX = '3f2504e04f8941d39a0c0305e82c3301';

const employeeData = {
  id: 'emp-7',
  firstName: 'Ana',
  lastName: 'Horvat',
  position: 'Engineer',
  departmentId: null,
  status: 'Active',
  isAccountOwner: false,
  isArchived: false,
  createdAt: '2026-10-01T08:00:00.000Z',
  editedAt: '2026-10-07T11:59:00.000Z',
};

const event = (overrides: Partial<DomainEvent> = {}): DomainEvent => ({
  id: EVENT_ID,
  type: 'employee.updated',
  tenantId: 'tenant-secret-42',
  occurredAt: '2026-10-07T12:00:00.000Z',
  data: employeeData,
  ...overrides,
});

describe('envelopeBytes', () => {
  const bytes = envelopeBytes(event());
  const parsed = JSON.parse(bytes) as Record<string, unknown>;

  it('has exactly id, type, createdAt, data, in that order', () => {
    expect(Object.keys(parsed)).toEqual(['id', 'type', 'createdAt', 'data']);
  });

  it('carries the id as evt_ + the event GUID without dashes, in lowercase hex', () => {
    expect(parsed.id).toBe(`evt_${EVENT_HEX}`);
    expect(parsed.id).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('keeps the event type and uses occurredAt (not the delivery time) as createdAt', () => {
    expect(parsed.type).toBe('employee.updated');
    expect(parsed.createdAt).toBe('2026-10-07T12:00:00.000Z');
  });

  it('carries the data unchanged, keys in their original order', () => {
    expect(parsed.data).toEqual(employeeData);
    expect(Object.keys(parsed.data as object)).toEqual(Object.keys(employeeData));
  });

  it('is compact JSON with exactly this byte layout', () => {
    expect(bytes).toBe(
      `{"id":"evt_${EVENT_HEX}","type":"employee.updated","createdAt":"2026-10-07T12:00:00.000Z","data":${JSON.stringify(employeeData)}}`,
    );
  });

  it('never leaks the tenant id or any other field of the domain event', () => {
    expect(bytes).not.toContain('tenant-secret-42');
    expect(bytes).not.toContain('tenantId');
    const withExtras = envelopeBytes({
      ...event(),
      routingKey: 'employees.employee.updated',
      seq: 7,
      trace: { traceparent: '00-abc' },
    } as DomainEvent);
    expect(Object.keys(JSON.parse(withExtras) as object)).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(withExtras).not.toMatch(/routingKey|seq|traceparent|tenant/);
  });

  it('is deterministic: the same event always gives the same bytes', () => {
    expect(envelopeBytes(event())).toBe(bytes);
  });

  it.each([
    ['entry.approved', { id: 'te-1', entryNumber: '2026-00001', isPaidOut: false }],
    ['entry.paidout', { id: 'te-2', entryNumber: '', phase: null }],
  ])('works for %s events too', (type, data) => {
    const out = JSON.parse(envelopeBytes(event({ type, data }))) as Record<string, unknown>;
    expect(out).toEqual({ id: `evt_${EVENT_HEX}`, type, createdAt: '2026-10-07T12:00:00.000Z', data });
  });

  it('refuses an event id that is not a dashed GUID', () => {
    expect(() => envelopeBytes(event({ id: EVENT_HEX }))).toThrow(TypeError);
    expect(() => envelopeBytes(event({ id: 'not-a-guid' }))).toThrow(TypeError);
  });
});
