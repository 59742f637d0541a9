import type { NextFunction, Request, Response } from 'express';
import { CONTEXT_HEADER, mintContext, type CallerContext, type ContextTrust } from '../context';
import { generateSigningKey, keyringText, parseKeyring, privateKeyFromText } from '../context-keys';
import { AppError } from '../errors';
import { requireInternalContext } from './request-context';

const gateway = generateSigningKey();
const entries = generateSigningKey();
const GATEWAY_KEY = privateKeyFromText(gateway.privateKey);
const ENTRIES_KEY = privateKeyFromText(entries.privateKey);
/** employees, trusting the gateway and entries. */
const TRUST: ContextTrust = {
  audience: 'employees',
  keyring: parseKeyring(keyringText({ gateway: gateway.publicKey, entries: entries.publicKey })),
};
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
    const guard = requireInternalContext(TRUST, ['caller']);
    const token = mintContext(caller, GATEWAY_KEY);
    for (const id of ['req-1', 'req-2', 'req-3']) {
      const { req, error } = call(guard, token, id);
      expect(error).toBeUndefined();
      expect(req.internal).toEqual({ ...caller, requestId: id });
    }
  });

  it.each([
    ['no context', undefined],
    ['a caller context signed by a service key', mintContext(caller, ENTRIES_KEY)],
    ['an expired context', mintContext(caller, GATEWAY_KEY, 60, Date.now() - 61_000)],
    [
      'a service context where a caller is required',
      mintContext({ kind: 'service', service: 'entries', audience: 'employees', requestId: 'r' }, ENTRIES_KEY),
    ],
  ])('refuses %s with 401', (_name, token) => {
    const guard = requireInternalContext(TRUST, ['caller']);
    const { error } = call(guard, token, 'req-1');
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(401);
  });

  it('accepts on internal routes only service contexts addressed to this service by an issuer it trusts', () => {
    const guard = requireInternalContext(TRUST, ['service']);
    const to = (audience: string) => ({ kind: 'service', service: 'entries', audience, requestId: 'r' }) as const;
    expect(call(guard, mintContext(to('employees'), ENTRIES_KEY), 'req-1').error).toBeUndefined();
    for (const token of [mintContext(to('fleet'), ENTRIES_KEY), mintContext(caller, GATEWAY_KEY)]) {
      const { error } = call(guard, token, 'req-1');
      expect((error as AppError).status).toBe(401);
    }
  });
});
