// Whose delegate the caller is now (issue 39 §2, docs/decisions/0205): asked of the employees context on
// every decision by someone who is not an approver of the step, never remembered here, so a delegation
// named or withdrawn on any replica of employees counts on every replica of entries at once.
import type { CallerContext } from '@travel/platform';
import { MARKET_PROFILES } from '@travel/per-diem';
import { localDate } from '@travel/per-diem/src/time';
import type { EmployeeDirectory } from './ports';

export type DelegatorsOf = (
  caller: Pick<CallerContext, 'tenantId' | 'employeeId' | 'market'>,
  at: Date,
) => Promise<string[]>;

/** The approvers who named the caller's employee their delegate for the day of `at` in the market's calendar. */
export const delegatorsVia =
  (employees: Pick<EmployeeDirectory, 'delegatorsOf'>): DelegatorsOf =>
  (caller, at) =>
    employees.delegatorsOf(
      caller.tenantId,
      caller.employeeId,
      localDate(MARKET_PROFILES[caller.market].zone, at.getTime()),
    );
