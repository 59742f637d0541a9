// CompanyPermissions: atomic flags. Presets are accepted on write and expanded; responses list atomic
// flags only. Flags this version does not know are kept verbatim, so a client writing back a list it
// read from a newer server never strips a permission it does not understand.
export const PERMISSIONS = [
  'ManageVehicles',
  'ManageCompanyData',
  'ManageEmployees',
  'EditAllEntries',
  'ReadAllEntries',
  'ApproveEntries',
  'ManagePayouts',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PRESETS: Record<string, readonly Permission[]> = {
  FleetManager: ['ReadAllEntries', 'ManageVehicles'],
  CompanyAdmin: [
    'ManageVehicles',
    'ManageCompanyData',
    'ManageEmployees',
    'EditAllEntries',
    'ReadAllEntries',
    'ApproveEntries',
    'ManagePayouts',
  ],
};

/** Expands presets and removes duplicates, keeping first-seen order and unknown flags. */
export function expandPermissions(input: readonly string[]): string[] {
  const out = new Set<string>();
  // Object.hasOwn: a flag named like an Object.prototype member (`toString`) is just an unknown flag.
  for (const name of input) for (const flag of Object.hasOwn(PRESETS, name) ? PRESETS[name]! : [name]) out.add(flag);
  return [...out];
}

/** Account owners hold every known flag, plus whatever else they were given. */
export function ownerPermissions(extra: readonly string[] = []): string[] {
  return expandPermissions([...PERMISSIONS, ...extra]);
}

export const isKnownPermission = (flag: string): flag is Permission =>
  (PERMISSIONS as readonly string[]).includes(flag);

/** What a write does to an employee's flags: flags it adds and flags it removes. */
export interface PermissionChange {
  added: string[];
  removed: string[];
}

export function permissionChange(before: readonly string[], after: readonly string[]): PermissionChange {
  const had = new Set(before);
  const has = new Set(after);
  return { added: after.filter((f) => !had.has(f)), removed: before.filter((f) => !has.has(f)) };
}

/**
 * No privilege escalation (docs/decisions/0011-permission-writes.md): a caller may add or remove only flags
 * they hold themselves. A flag this version does not know grants nothing here, so anyone allowed to edit
 * the employee may remove it; adding one still needs the caller to hold it (it may mean something later).
 * Returns the flags the caller would need, in the order of the change; empty when the write is allowed.
 */
export function flagsCallerLacks(callerFlags: readonly string[], change: PermissionChange): string[] {
  const held = new Set(callerFlags);
  const needed = [...change.added, ...change.removed.filter(isKnownPermission)];
  return [...new Set(needed.filter((flag) => !held.has(flag)))];
}

/** Flags an account owner must always keep: every flag this version knows. */
export const missingOwnerFlags = (flags: readonly string[]): Permission[] =>
  PERMISSIONS.filter((p) => !flags.includes(p));
