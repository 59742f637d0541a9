import { costCenterFields, departmentFields, MAX_DEPARTMENT_DEPTH, parentProblem } from './org';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'aaaaaaaa-0000-4000-8000-000000000002';
const C = 'aaaaaaaa-0000-4000-8000-000000000003';
const D = 'aaaaaaaa-0000-4000-8000-000000000004';

describe('departmentFields', () => {
  it('trims, keys the code case-insensitively, and makes an omitted parent a root', () => {
    expect(departmentFields({ name: '  Sales ', code: 'sal-1' })).toEqual({
      fields: { name: 'Sales', code: 'sal-1', codeKey: 'SAL-1', parentId: null },
      errors: {},
    });
  });

  it('lower-cases the parent id', () => {
    expect(departmentFields({ name: 'x', code: 'x', parentId: A.toUpperCase() }).fields.parentId).toBe(A);
  });

  it.each([
    ['   ', 'must not be blank'],
    ['Sa\u0000les', 'must not contain control characters'],
  ])('refuses the name %j', (name, message) => {
    expect(departmentFields({ name, code: 'x' }).errors).toEqual({ name: [message] });
  });
});

describe('costCenterFields', () => {
  it('defaults isActive to true and clears an omitted or blank description', () => {
    expect(costCenterFields({ name: 'Field work', code: 'CC-100' }).fields).toEqual({
      name: 'Field work',
      code: 'CC-100',
      codeKey: 'CC-100',
      description: null,
      isActive: true,
    });
    expect(costCenterFields({ name: 'x', code: 'x', description: '  ' }).fields.description).toBeNull();
  });

  it('keeps isActive false and a multi-line description', () => {
    expect(costCenterFields({ name: 'x', code: 'x', isActive: false, description: 'line 1\nline 2' })).toMatchObject({
      fields: { isActive: false, description: 'line 1\nline 2' },
      errors: {},
    });
  });

  it('refuses control characters other than line breaks and tabs in the description', () => {
    expect(costCenterFields({ name: 'x', code: 'x', description: 'bell\u0007' }).errors).toEqual({
      description: ['must not contain control characters'],
    });
  });
});

describe('parentProblem', () => {
  // A ← B ← C (C below B below A), D a separate root.
  const tree = new Map<string, string | null>([
    [A, null],
    [B, A],
    [C, B],
    [D, null],
  ]);

  it('accepts an existing parent on create, and a move elsewhere in the tree', () => {
    expect(parentProblem(undefined, C, tree)).toBeUndefined();
    expect(parentProblem(C, D, tree)).toBeUndefined();
    expect(parentProblem(B, D, tree)).toBeUndefined();
  });

  it('refuses a parent that is not a department of the company', () => {
    expect(parentProblem(undefined, 'ffffffff-0000-4000-8000-000000000000', tree)).toBe(
      'must be a department of this company',
    );
  });

  it('refuses the department itself', () => {
    expect(parentProblem(B, B, tree)).toBe('a department cannot be its own parent');
  });

  it('refuses a department below it (a cycle), however deep', () => {
    expect(parentProblem(A, B, tree)).toBe('would put the department below itself (a cycle)');
    expect(parentProblem(A, C, tree)).toBe('would put the department below itself (a cycle)');
  });

  function chain(length: number): Map<string, string | null> {
    const m = new Map<string, string | null>();
    for (let i = 0; i < length; i++) m.set(`d${i}`, i === 0 ? null : `d${i - 1}`);
    return m;
  }

  it(`allows a tree of ${MAX_DEPARTMENT_DEPTH} levels and no deeper`, () => {
    const full = chain(MAX_DEPARTMENT_DEPTH - 1); // levels 1..19
    expect(parentProblem(undefined, `d${MAX_DEPARTMENT_DEPTH - 2}`, full)).toBeUndefined(); // new one at level 20
    const deeper = chain(MAX_DEPARTMENT_DEPTH); // levels 1..20
    expect(parentProblem(undefined, `d${MAX_DEPARTMENT_DEPTH - 1}`, deeper)).toBe(
      `would make the department tree deeper than ${MAX_DEPARTMENT_DEPTH} levels`,
    );
  });

  it('counts the subtree of a moved department', () => {
    // A separate chain of 10 (e0..e9) moved below d9 (level 10) would reach level 20: fine; below d10: too deep.
    const m = chain(15);
    for (let i = 0; i < 10; i++) m.set(`e${i}`, i === 0 ? null : `e${i - 1}`);
    expect(parentProblem('e0', 'd9', m)).toBeUndefined();
    expect(parentProblem('e0', 'd10', m)).toMatch(/deeper than/);
  });

  it('terminates on a cycle already in the data', () => {
    const broken = new Map<string, string | null>([
      ['x', 'y'],
      ['y', 'x'],
      [A, null],
    ]);
    expect(parentProblem(A, 'x', broken)).toMatch(/deeper than/);
  });
});
