import { flagsCallerLacks, isKnownPermission, missingOwnerFlags, permissionChange, PERMISSIONS } from './permissions';

describe('permissionChange', () => {
  it('lists added and removed flags in list order', () => {
    expect(
      permissionChange(['ReadAllEntries', 'ManageVehicles', 'X'], ['ManageVehicles', 'ApproveEntries', 'Y']),
    ).toEqual({
      added: ['ApproveEntries', 'Y'],
      removed: ['ReadAllEntries', 'X'],
    });
  });

  it('is empty for a write-back of the same list, in any order', () => {
    expect(permissionChange(['A', 'B'], ['B', 'A'])).toEqual({ added: [], removed: [] });
  });
});

describe('flagsCallerLacks (no privilege escalation)', () => {
  const change = (before: string[], after: string[]) => permissionChange(before, after);

  it('allows granting and taking away flags the caller holds', () => {
    expect(
      flagsCallerLacks(['ManageEmployees', 'ManageVehicles'], change([], ['ManageVehicles', 'ManageEmployees'])),
    ).toEqual([]);
    expect(flagsCallerLacks(['ManageEmployees', 'ManageVehicles'], change(['ManageVehicles'], []))).toEqual([]);
  });

  it('names each flag granted that the caller does not hold', () => {
    expect(
      flagsCallerLacks(['ManageEmployees'], change([], ['ManagePayouts', 'ManageEmployees', 'ApproveEntries'])),
    ).toEqual(['ManagePayouts', 'ApproveEntries']);
  });

  it('names each known flag taken away that the caller does not hold', () => {
    expect(
      flagsCallerLacks(['ManageEmployees'], change(['ManagePayouts', 'ReadAllEntries'], ['ReadAllEntries'])),
    ).toEqual(['ManagePayouts']);
  });

  it('lets anyone allowed to edit remove a flag this version does not know (it grants nothing here)', () => {
    expect(flagsCallerLacks(['ManageEmployees'], change(['FutureFlag'], []))).toEqual([]);
  });

  it('but adding an unknown flag needs the caller to hold it (it may mean something later)', () => {
    expect(flagsCallerLacks(['ManageEmployees'], change([], ['FutureFlag']))).toEqual(['FutureFlag']);
    expect(flagsCallerLacks(['ManageEmployees', 'FutureFlag'], change([], ['FutureFlag']))).toEqual([]);
  });

  it('a write-back that changes nothing needs nothing, whatever the employee holds', () => {
    const theirs = [...PERMISSIONS, 'FutureFlag'];
    expect(flagsCallerLacks(['ManageEmployees'], change(theirs, [...theirs].reverse()))).toEqual([]);
  });
});

describe('isKnownPermission and missingOwnerFlags', () => {
  it('know the catalog', () => {
    expect(PERMISSIONS.every(isKnownPermission)).toBe(true);
    expect(isKnownPermission('FleetManager')).toBe(false);
    expect(isKnownPermission('toString')).toBe(false);
  });

  it('list the catalog flags an owner would be missing', () => {
    expect(missingOwnerFlags([...PERMISSIONS])).toEqual([]);
    expect(missingOwnerFlags(['ManageVehicles'])).toEqual(PERMISSIONS.filter((p) => p !== 'ManageVehicles'));
  });
});
