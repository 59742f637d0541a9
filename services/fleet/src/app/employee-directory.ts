import type { EmployeeContact } from '@travel/contracts';

/** Who the employees of a company are (answered by the employees context). */
export interface EmployeeDirectory {
  exists(tenantId: string, employeeId: string): Promise<boolean>;
  /** Name and e-mail address for a reminder; null when the employee is not the company's. */
  contact(tenantId: string, employeeId: string): Promise<EmployeeContact | null>;
}
