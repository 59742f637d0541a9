// TenantScope.commit and create with events (docs/decisions/0170): the one revision-checked write with its
// events in the same single-document update, bracketed by the collection's version bumps, and the relay
// of the write's connection nudged after it.
import type { Connection, Model } from 'mongoose';
import { AppError, problem } from '../errors';
import type { OutboxEvent } from '../messaging/events';
import { relayOutboxWrites } from '../messaging/outbox-nudge';
import type { CollectionVersions } from './collection-versions';
import { TenantScope } from './tenant-scope';
import { RevisionConflict, withRevisionRetry } from './writes';

const event = (id: string): OutboxEvent => ({ id, type: 'entry.updated', tenantId: 't1' }) as unknown as OutboxEvent;

/** A scope over a fake model whose stored document is at revision `rev`; records the calls in order. */
function scopeAt(rev: number) {
  const calls: string[] = [];
  const db = {} as Connection;
  const versions = {
    around: jest.fn(async (_t: string, _c: string, write: () => Promise<unknown>) => {
      calls.push('begin');
      const result = await write();
      calls.push('end');
      return result;
    }),
  } as unknown as CollectionVersions;
  const model = {
    db,
    collection: { collectionName: 'entries' },
    updateOne: jest.fn((filter: { rev?: number }, _update?: unknown) => ({
      exec: async () => {
        calls.push('write');
        return { matchedCount: filter.rev === rev ? 1 : 0 };
      },
    })),
    create: jest.fn(async (doc: unknown) => {
      calls.push('write');
      return doc;
    }),
  };
  // The nudge names the document written, so the relay of this replica publishes it at once (0243).
  const forget = relayOutboxWrites(db, (written) => calls.push(`nudge ${written.collection}/${String(written.id)}`));
  const scope = new TenantScope(model as unknown as Model<{ tenantId: string }>, 't1', versions);
  return { scope, model, calls, forget };
}

describe('TenantScope.commit: one revision-checked write with its events (0170)', () => {
  it('writes at the revision read, rev + 1 and the events in the same update, bracketed, then nudges', async () => {
    const { scope, model, calls, forget } = scopeAt(3);
    const rev = await scope.commit(
      { _id: 'e1', rev: 3 },
      { $set: { note: 'x' }, where: { deletedAt: null } },
      event('ev1'),
      event('ev2'),
    );
    forget();
    expect(rev).toBe(4);
    expect(model.updateOne).toHaveBeenCalledWith(
      { deletedAt: null, _id: 'e1', rev: 3, tenantId: 't1' },
      {
        $set: { note: 'x', rev: 4, 'outbox.ev1': event('ev1'), 'outbox.ev2': event('ev2') },
        $inc: { outboxCount: 2 },
      },
      undefined,
    );
    expect(calls).toEqual(['begin', 'write', 'end', 'nudge entries/e1']);
  });

  it('a document without a revision (stored before revisions) is written on its absence, then at rev 1', async () => {
    const { scope, model, forget } = scopeAt(3);
    await expect(scope.commit({ _id: 'e1' }, { $set: { note: 'x' } })).rejects.toBeInstanceOf(RevisionConflict);
    forget();
    expect(model.updateOne.mock.calls[0][0]).toEqual({ _id: 'e1', rev: { $exists: false }, tenantId: 't1' });
    expect(model.updateOne.mock.calls[0][1]).toEqual({ $set: { note: 'x', rev: 1 } });
  });

  it('without events: the plain update, no outbox fields, no nudge', async () => {
    const { scope, model, calls, forget } = scopeAt(0);
    await scope.commit({ _id: 'e1', rev: 0 }, { $set: { note: 'x' }, $push: { log: 1 } });
    forget();
    expect(model.updateOne.mock.calls[0][1]).toEqual({ $set: { note: 'x', rev: 1 }, $push: { log: 1 } });
    expect(calls).toEqual(['begin', 'write', 'end']);
  });

  it('another write first: RevisionConflict, the documented 409 CONFLICT, and no nudge', async () => {
    const { scope, calls, forget } = scopeAt(5);
    const err = await scope.commit({ _id: 'e1', rev: 4 }, { $set: {} }, event('ev1')).catch((e: unknown) => e);
    forget();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(409);
    expect(problem((err as AppError).code, 'trace-1', (err as AppError).message)).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      detail: 'The record was changed by other requests at the same time; read it again and retry.',
    });
    expect(calls).toEqual(['begin', 'write', 'end']);
  });

  it('withRevisionRetry runs a lost attempt again, and answers 409 after the last', async () => {
    const { scope, forget } = scopeAt(5);
    let attempts = 0;
    const won = await withRevisionRetry('entry', async () => {
      attempts++;
      return scope.commit({ _id: 'e1', rev: attempts === 1 ? 4 : 5 }, { $set: {} });
    });
    expect([won, attempts]).toEqual([6, 2]);
    const lost = (await withRevisionRetry('entry', () => scope.commit({ _id: 'e1', rev: 1 }, { $set: {} }), 3).catch(
      (e: unknown) => e,
    )) as AppError;
    forget();
    expect([lost.code, lost.message]).toEqual([
      'CONFLICT',
      'The entry was changed by other requests at the same time; read it again and retry.',
    ]);
  });

  it('create with events: the document carries them in its outbox, and the relay is nudged', async () => {
    const { scope, model, calls, forget } = scopeAt(0);
    await scope.create({ _id: 'e2', rev: 0 } as never, event('ev1'));
    await scope.create({ _id: 'e3' } as never);
    forget();
    expect(model.create.mock.calls[0][0]).toEqual({
      _id: 'e2',
      rev: 0,
      tenantId: 't1',
      outbox: { ev1: event('ev1') },
      outboxCount: 1,
    });
    expect(model.create.mock.calls[1][0]).toEqual({ _id: 'e3', tenantId: 't1' });
    expect(calls).toEqual(['begin', 'write', 'end', 'nudge entries/e2', 'begin', 'write', 'end']);
  });

  it('a connection without a relay (a migrate-only run): the write stands, nothing is nudged', async () => {
    const { scope, calls, forget } = scopeAt(0);
    forget();
    await scope.commit({ _id: 'e1', rev: 0 }, { $set: {} }, event('ev1'));
    expect(calls).toEqual(['begin', 'write', 'end']);
  });
});
