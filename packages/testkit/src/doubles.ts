// Test doubles for use-case tests that prove a refusal comes before any I/O. Free of infrastructure
// imports, so unit tests can take them from '@travel/testkit/src/doubles' without loading drivers.
import { AppError, type CallerContext } from '@travel/platform';

/** A dependency that fails the test on any use: the refusal must come before it. */
export const untouched = <T extends object>(name: string): T =>
  new Proxy({} as T, {
    get: (_t, key) => {
      if (key === 'then') return undefined;
      throw new Error(`${name}.${String(key)} was used before the refusal`);
    },
  });

/** The AppError a call is refused with; fails the test when it is not refused, or fails otherwise. */
export async function refusal(run: () => unknown): Promise<AppError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('not refused');
}

/** A caller context for use-case tests: tenant t1, employee e1, key k1, in CZ unless told otherwise. */
export const testCaller = (overrides: Partial<CallerContext> = {}): CallerContext => ({
  kind: 'caller',
  tenantId: 't1',
  market: 'CZ',
  baseCurrency: 'CZK',
  employeeId: 'e1',
  apiKeyId: 'k1',
  permissions: [],
  requestId: 'r1',
  ...overrides,
});
