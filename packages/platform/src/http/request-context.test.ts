import type { NextFunction, Request, Response } from 'express';
import { CONTEXT_HEADER, mintContext, type CallerContext } from '../context';
import { AppError } from '../errors';
import { requireInternalContext } from './request-context';

const SECRET = 'request-context-test-secret';
const caller: CallerContext = {
  kind: 'caller',
  tenantId: 't-1',
  market: 'SK',
  baseCurrency: 'EUR',
  employeeId: 'e-1',
  apiKeyId: 'k-1',
  permissions: ['ManageEmployees'],
  requestId: 'minted-for-req-1',
};

function call(guard: ReturnType<typeof requireInternalContext>, token: string | undefined, requestId: string) {
  const req = {
    requestId,
    header: (name: string) => (name.toLowerCase() === CONTEXT_HEADER ? token : undefined),
  } as unknown as Request;
  let passed: unknown = 'not called';
  guard(req, {} as Response, ((err?: unknown) => (passed = err)) as NextFunction);
  return { req, error: passed };
}

describe('requireInternalContext', () => {
  it('one token reused for several requests: each request sees its own request id, the same caller', () => {
    const guard = requireInternalContext(SECRET, ['caller']);
    const token = mintContext(caller, SECRET);
    for (const id of ['req-1', 'req-2', 'req-3']) {
      const { req, error } = call(guard, token, id);
      expect(error).toBeUndefined();
      expect(req.internal).toEqual({ ...caller, requestId: id });
    }
  });

  it.each([
    ['no context', undefined],
    ['a context of another secret', mintContext(caller, 'another-secret')],
    ['an expired context', mintContext(caller, SECRET, 60, Date.now() - 61_000)],
    [
      'a service context where a caller is required',
      mintContext({ kind: 'service', service: 's', requestId: 'r' }, SECRET),
    ],
  ])('refuses %s with 401', (_name, token) => {
    const guard = requireInternalContext(SECRET, ['caller']);
    const { error } = call(guard, token, 'req-1');
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(401);
  });
});
