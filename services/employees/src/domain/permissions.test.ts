import { PERMISSIONS, PRESETS, expandPermissions, ownerPermissions } from './permissions';

describe('PERMISSIONS', () => {
  it('names every atomic flag of the spec', () => {
    expect(PERMISSIONS).toEqual(
      expect.arrayContaining(['ManageVehicles', 'ManageCompanyData', 'EditAllEntries', 'ReadAllEntries']),
    );
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });

  it('contains no preset names (output is atomic flags only)', () => {
    for (const preset of Object.keys(PRESETS)) expect(PERMISSIONS).not.toContain(preset);
  });
});

describe('expandPermissions', () => {
  it.each<[string, string[], string[]]>([
    ['nothing', [], []],
    ['atomic flags as given', ['ManageCompanyData', 'EditAllEntries'], ['ManageCompanyData', 'EditAllEntries']],
    ['FleetManager → ReadAllEntries + ManageVehicles', ['FleetManager'], ['ReadAllEntries', 'ManageVehicles']],
    [
      'a preset next to flags, in first-seen order',
      ['EditAllEntries', 'FleetManager'],
      ['EditAllEntries', 'ReadAllEntries', 'ManageVehicles'],
    ],
    ['a flag the preset also grants, once', ['ManageVehicles', 'FleetManager'], ['ManageVehicles', 'ReadAllEntries']],
    [
      'duplicate flags, once',
      ['ReadAllEntries', 'ReadAllEntries', 'ManageVehicles', 'ReadAllEntries'],
      ['ReadAllEntries', 'ManageVehicles'],
    ],
    ['a preset twice, once', ['FleetManager', 'FleetManager'], ['ReadAllEntries', 'ManageVehicles']],
    [
      'unknown flags, kept verbatim and in order',
      ['FutureFlagB', 'ManageVehicles', 'FutureFlagA'],
      ['FutureFlagB', 'ManageVehicles', 'FutureFlagA'],
    ],
    ['duplicate unknown flags, once', ['FutureFlag', 'FutureFlag'], ['FutureFlag']],
    [
      'unknown flags next to a preset',
      ['FutureFlag', 'FleetManager', 'OtherFlag'],
      ['FutureFlag', 'ReadAllEntries', 'ManageVehicles', 'OtherFlag'],
    ],
    ['a case variant of a preset as an unknown flag (not expanded)', ['fleetmanager'], ['fleetmanager']],
  ])('%s', (_name, input, expected) => {
    expect(expandPermissions(input)).toEqual(expected);
  });

  it('CompanyAdmin includes ManageVehicles and expands to atomic flags only', () => {
    const flags = expandPermissions(['CompanyAdmin']);
    expect(flags).toContain('ManageVehicles');
    expect(flags).toEqual(expect.arrayContaining(['ManageCompanyData', 'EditAllEntries', 'ReadAllEntries']));
    expect(flags).not.toContain('CompanyAdmin');
    for (const flag of flags) expect(PERMISSIONS).toContain(flag);
  });

  it('writing back a list it read is a no-op (including unknown flags): losing ManageVehicles is impossible', () => {
    const stored = expandPermissions(['FleetManager', 'SomeNewerFlag', 'ApproveEntries']);
    expect(expandPermissions(stored)).toEqual(stored);
    expect(stored).toContain('ManageVehicles');
    expect(stored).toContain('SomeNewerFlag');
  });

  it.each(['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__'])(
    'keeps a flag named like an Object.prototype member (%s) as an unknown flag',
    (name) => {
      expect(expandPermissions(['ReadAllEntries', name])).toEqual(['ReadAllEntries', name]);
    },
  );

  it('does not modify its input', () => {
    const input = Object.freeze(['FleetManager', 'X']);
    expandPermissions(input);
    expect(input).toEqual(['FleetManager', 'X']);
  });
});

describe('ownerPermissions', () => {
  it('holds every known flag, in catalog order', () => {
    expect(ownerPermissions()).toEqual([...PERMISSIONS]);
  });

  it('adds extra flags after the known ones, expanding presets and removing duplicates', () => {
    expect(ownerPermissions(['FutureFlag', 'FleetManager', 'ManageVehicles', 'FutureFlag'])).toEqual([
      ...PERMISSIONS,
      'FutureFlag',
    ]);
  });
});
