import type { OutboxEvent } from './events';
import { outboxSchemaFields, outboxUpdate, withOutbox } from './outbox';

const event = (id: string, type = 'employee.updated'): OutboxEvent => ({
  id,
  type,
  tenantId: 'tenant-1',
  occurredAt: '2026-10-07T12:00:00.000Z',
  data: { id: 'emp-1' },
  routingKey: `employees.${type}`,
  seq: 1,
});

const e1 = event('11111111-1111-4111-8111-111111111111', 'employee.created');
const e2 = event('22222222-2222-4222-8222-222222222222');
const e3 = event('33333333-3333-4333-8333-333333333333');

describe('withOutbox', () => {
  it('keys every event by its id and counts them', () => {
    expect(withOutbox(e1, e2, e3)).toEqual({
      outbox: { [e1.id]: e1, [e2.id]: e2, [e3.id]: e3 },
      outboxCount: 3,
    });
  });

  it('keeps the events themselves (same objects, nothing stripped)', () => {
    const { outbox } = withOutbox(e1);
    expect(outbox[e1.id]).toBe(e1);
    expect(Object.keys(outbox)).toEqual([e1.id]);
  });

  it('with no events gives an empty outbox and a zero count', () => {
    expect(withOutbox()).toEqual({ outbox: {}, outboxCount: 0 });
  });

  it('can be spread into a new document next to its state', () => {
    const doc = { _id: 'emp-1', firstName: 'Ana', ...withOutbox(e1) };
    expect(doc).toEqual({ _id: 'emp-1', firstName: 'Ana', outbox: { [e1.id]: e1 }, outboxCount: 1 });
  });
});

describe('outboxUpdate', () => {
  it("adds to a caller's own $inc.outboxCount and counts a repeated event once", () => {
    expect(outboxUpdate({ $inc: { outboxCount: 2 } }, e1, e1).$inc).toEqual({ outboxCount: 3 });
  });

  it('adds each event under outbox.<id> in $set and increments outboxCount by the number of events', () => {
    expect(outboxUpdate({}, e1, e2)).toEqual({
      $set: { [`outbox.${e1.id}`]: e1, [`outbox.${e2.id}`]: e2 },
      $inc: { outboxCount: 2 },
    });
  });

  it('keeps the state change in the existing $set', () => {
    const update = outboxUpdate({ $set: { firstName: 'Ana', editedAt: 'now' } }, e2);
    expect(update).toEqual({
      $set: { firstName: 'Ana', editedAt: 'now', [`outbox.${e2.id}`]: e2 },
      $inc: { outboxCount: 1 },
    });
  });

  it('merges with an existing $inc', () => {
    expect(outboxUpdate({ $inc: { version: 1, exhaustedInARow: 1 } }, e1)).toEqual({
      $set: { [`outbox.${e1.id}`]: e1 },
      $inc: { version: 1, exhaustedInARow: 1, outboxCount: 1 },
    });
  });

  it('keeps every other update operator untouched', () => {
    const update = outboxUpdate({ $set: { a: 1 }, $unset: { b: '' }, $push: { log: 'x' } }, e1, e2, e3);
    expect(update).toEqual({
      $set: { a: 1, [`outbox.${e1.id}`]: e1, [`outbox.${e2.id}`]: e2, [`outbox.${e3.id}`]: e3 },
      $unset: { b: '' },
      $push: { log: 'x' },
      $inc: { outboxCount: 3 },
    });
  });

  it('does not mutate the update it was given', () => {
    const original = { $set: { a: 1 }, $inc: { v: 1 } };
    const snapshot = JSON.parse(JSON.stringify(original)) as unknown;
    outboxUpdate(original, e1);
    expect(original).toEqual(snapshot);
  });

  it('with no events still yields a valid update ($inc by 0)', () => {
    expect(outboxUpdate({ $set: { a: 1 } })).toEqual({ $set: { a: 1 }, $inc: { outboxCount: 0 } });
  });
});

describe('outboxSchemaFields', () => {
  it('declares the outbox map and an indexed counter defaulting to 0', () => {
    expect(outboxSchemaFields.outbox).toEqual({ type: Object, default: undefined });
    expect(outboxSchemaFields.outboxCount).toEqual({ type: Number, default: 0, index: true });
  });
});
