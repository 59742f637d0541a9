import { testCaller } from '@travel/testkit/src/doubles';
import { AppError } from '@travel/platform';
import { EmployeesApp } from './employees';

// Issue 20 §2 at the use case: an employee create that skipped the contract validator is refused with
// the documented 400 body before anything is stored (docs/decisions/0107).

const caller = testCaller({ market: 'HR', baseCurrency: 'EUR', permissions: ['ManageEmployees'] });
const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

/** Repositories that fail the test on any use: the refusal comes first. */
const untouched = new Proxy({} as ConstructorParameters<typeof EmployeesApp>[0], {
  get: (_t, key) => {
    throw new Error(`repos.${String(key)} was used before the refusal`);
  },
});

it('EmployeesApp.create refuses 101 cost centers, 65 permission entries and 51 custom fields together', async () => {
  const app = new EmployeesApp(untouched);
  const err = await app
    .create(caller, {
      firstName: 'Ana',
      lastName: 'Horvat',
      costCenterIds: ids(101),
      permissions: new Array(65).fill('ReadAllEntries'),
      customFields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, i])),
    })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('VALIDATION_FAILED');
  expect((err as AppError).errors).toEqual({
    costCenterIds: ['must name at most 100 distinct cost centers (names 101)'],
    permissions: ['must NOT have more than 64 items'],
    customFields: ['must NOT have more than 50 properties'],
  });
});
