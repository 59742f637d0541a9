// Who may read and write which entries (docs/decisions/0044).
export const READ_ALL_ENTRIES = 'ReadAllEntries';
export const EDIT_ALL_ENTRIES = 'EditAllEntries';

export interface Caller {
  employeeId: string;
  permissions: readonly string[];
}

export const mayEditAll = (c: Caller): boolean => c.permissions.includes(EDIT_ALL_ENTRIES);
export const mayReadAll = (c: Caller): boolean => mayEditAll(c) || c.permissions.includes(READ_ALL_ENTRIES);

/** Another employee's entry the caller may not read is "not found" (no existence oracle). */
export const mayRead = (c: Caller, entryEmployeeId: string): boolean =>
  entryEmployeeId === c.employeeId || mayReadAll(c);

export const mayEdit = (c: Caller, entryEmployeeId: string): boolean =>
  entryEmployeeId === c.employeeId || mayEditAll(c);
