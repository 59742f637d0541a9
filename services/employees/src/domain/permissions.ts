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
  CompanyAdmin: ['ManageVehicles', 'ManageCompanyData', 'ManageEmployees', 'EditAllEntries', 'ReadAllEntries', 'ApproveEntries', 'ManagePayouts'],
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
