import { toBankDataChangeResponse } from '../http/mappers';
import { bankDataChange, maskIban } from './bank-data-change';

const AT = new Date('2026-11-20T08:00:00Z');
const author = { employeeId: 'e1', apiKeyId: 'k1' };

describe('bankDataChange (docs/decisions/0106)', () => {
  it('masks an IBAN to its country and last four characters', () => {
    expect(maskIban('CZ6508000000192000145399')).toBe('CZ…5399');
    expect(maskIban('SI56263300012039086')).toBe('SI…9086');
  });

  it('records the fields that changed, old and new masked, with who and when', () => {
    const c = bankDataChange(
      { bankAccount: 'CZ6508000000192000145399', bic: 'KOMBCZPP' },
      { bankAccount: 'CZ5508000000001234567899', bic: 'KOMBCZPP' },
      { ...author, keyIssuedByEmployeeId: 'boss' },
      AT,
      'c1',
    );
    expect(toBankDataChangeResponse(c!)).toEqual({
      id: 'c1',
      changedAt: '2026-11-20T08:00:00.000Z',
      changedByEmployeeId: 'e1',
      apiKeyId: 'k1',
      keyIssuedByEmployeeId: 'boss',
      changes: [{ field: 'bankAccount', before: 'CZ…5399', after: 'CZ…7899' }],
    });
    expect(JSON.stringify(c)).not.toContain('192000145399');
  });

  it('records bank data set or cleared, and nothing when the bank data stays as it was', () => {
    expect(
      bankDataChange(
        { bankAccount: null, bic: null },
        { bankAccount: 'PL61109010140000071219812874', bic: 'BPKOPLPW' },
        author,
        AT,
        'c2',
      )?.changes,
    ).toEqual([
      { field: 'bankAccount', before: null, after: 'PL…2874' },
      { field: 'bic', before: null, after: 'BPKOPLPW' },
    ]);
    expect(
      bankDataChange({ bankAccount: 'X', bic: 'B' }, { bankAccount: null, bic: 'B' }, author, AT, 'c3')?.changes,
    ).toEqual([{ field: 'bankAccount', before: 'X…', after: null }]);
    expect(
      bankDataChange({ bankAccount: 'X', bic: null }, { bankAccount: 'X', bic: null }, author, AT, 'c4'),
    ).toBeUndefined();
  });
});
