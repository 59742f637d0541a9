import { checkFilter, FILTER_LIMITS, matchesFilter, type PayloadFilter } from './payload-filter';

const ENTRY = ['entry.created', 'entry.approved'];
const EMPLOYEE = ['employee.created'];

describe('checkFilter: a filter is checked against the event types it will see', () => {
  it.each<[string, unknown, string[]]>([
    ['one equality', { 'data.isRequest': false }, ENTRY],
    ['operators together', { 'data.status': { $gte: 1, $lt: 4 }, 'data.employeeId': { $in: ['e1', 'e2'] } }, ENTRY],
    ['a nullable field against null', { 'data.departmentId': { $in: ['d1', null] } }, EMPLOYEE],
    ['an optional field', { 'data.sequence': { $exist: true } }, ENTRY],
    ['dates compared as strings', { 'data.departureDate': { $gte: '2026-12-01' } }, ENTRY],
    ['an array field by one of its items', { 'data.permissions': 'ManageCompanyData' }, EMPLOYEE],
    ['$or of $and', { $or: [{ $and: [{ 'data.isRequest': true }] }, { 'data.status': 3 }] }, ENTRY],
  ])('accepts %s', (_name, filter, types) => {
    expect(checkFilter(filter, types)).toEqual({});
  });

  it('a path some listed event type does not carry: 400 at that path, naming the type', () => {
    expect(checkFilter({ 'data.departmentId': 'd1' }, ['employee.created', 'entry.created'])).toEqual({
      'filter["data.departmentId"]': ["is not a field of entry.created's data"],
    });
  });

  it('a field of different types in the listed event types (status: a string of employees, a number of entries)', () => {
    expect(checkFilter({ 'data.status': 3 }, ['entry.approved', 'employee.updated'])).toEqual({
      'filter["data.status"]': [
        'is not of one type in the data of entry.approved, employee.updated: register a subscription per event type',
      ],
    });
    // Of one type in both: accepted (id is a string in every DTO).
    expect(checkFilter({ 'data.id': 'x' }, ['entry.approved', 'employee.updated'])).toEqual({});
  });

  it('a path outside data, or nested, or not a path at all', () => {
    expect(checkFilter({ isRequest: false, 'data.a.b': 1, type: 'entry.created' }, ENTRY)).toEqual({
      'filter["isRequest"]': ['must be "data.<field>", "$and" or "$or"'],
      'filter["data.a.b"]': ['must be "data.<field>", "$and" or "$or"'],
      'filter["type"]': ['must be "data.<field>", "$and" or "$or"'],
    });
  });

  it('a value of a type the field cannot hold, at the operator and item that holds it', () => {
    expect(
      checkFilter(
        {
          'data.isRequest': 'false',
          $or: [{ 'data.status': { $gt: '3' } }, { 'data.employeeId': { $in: ['e1', 7] } }],
        },
        ENTRY,
      ),
    ).toEqual({
      'filter["data.isRequest"]': ['must be boolean, as the field is'],
      'filter.$or[0]["data.status"].$gt': ['must be number, as the field is'],
      'filter.$or[1]["data.employeeId"].$in[1]': ['must be string, as the field is'],
    });
  });

  it('unknown operators, empty parts, comparisons of booleans and arrays', () => {
    expect(
      checkFilter(
        {
          'data.status': { $regex: 'x' },
          'data.employeeId': {},
          'data.isLocked': { $gt: false },
          $and: [],
        },
        ENTRY,
      ),
    ).toEqual({
      'filter["data.status"]': ['"$regex" is not an operator ($eq, $neq, $in, $nin, $exist, $gt, $gte, $lt, $lte)'],
      'filter["data.employeeId"]': ['must hold at least one operator'],
      'filter["data.isLocked"].$gt': ['must be a string or a number'],
      'filter.$and': ['must be a non-empty array of filters'],
    });
    expect(checkFilter({ 'data.permissions': { $gte: 'A' } }, EMPLOYEE)).toEqual({
      'filter["data.permissions"].$gte': ['cannot compare an array field'],
    });
  });

  it('not an object, an empty object, an object as a value', () => {
    expect(checkFilter('data.isRequest == false', ENTRY)).toEqual({ filter: ['must be an object or null'] });
    expect(checkFilter([], ENTRY)).toEqual({ filter: ['must be an object or null'] });
    expect(checkFilter({}, ENTRY)).toEqual({
      filter: ['must hold at least one condition (leave the filter out to receive every event)'],
    });
    expect(checkFilter({ 'data.status': { $eq: { a: 1 } } }, ENTRY)).toEqual({
      'filter["data.status"].$eq': ['must be a string, number, boolean or null'],
    });
  });

  it('limits: 20 conditions, $and/$or 3 deep, 100 values in a list, 256 characters in a string', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `e${i}`);
    expect(checkFilter({ $or: ids(20).map((id) => ({ 'data.employeeId': id })) }, ENTRY)).toEqual({});
    expect(checkFilter({ $or: ids(21).map((id) => ({ 'data.employeeId': id })) }, ENTRY)).toEqual({
      filter: ['must NOT hold more than 20 conditions'],
    });
    const nest = (depth: number): PayloadFilter => (depth === 0 ? { 'data.status': 3 } : { $or: [nest(depth - 1)] });
    expect(checkFilter(nest(3), ENTRY)).toEqual({});
    expect(checkFilter(nest(4), ENTRY)).toEqual({
      'filter.$or[0].$or[0].$or[0].$or': ['must NOT nest $and/$or more than 3 deep'],
    });
    expect(checkFilter({ 'data.employeeId': { $in: ids(100) } }, ENTRY)).toEqual({});
    expect(checkFilter({ 'data.employeeId': { $nin: ids(101) } }, ENTRY)).toEqual({
      'filter["data.employeeId"].$nin': ['must NOT have more than 100 items'],
    });
    expect(checkFilter({ 'data.employeeId': 'x'.repeat(256) }, ENTRY)).toEqual({});
    expect(checkFilter({ 'data.employeeId': 'x'.repeat(257) }, ENTRY)).toEqual({
      'filter["data.employeeId"]': ['must NOT have more than 256 characters'],
    });
    expect(FILTER_LIMITS).toEqual({ conditions: 20, depth: 3, listValues: 100, stringLength: 256 });
  });

  it('never echoes a value in a message', () => {
    const errors = checkFilter({ 'data.employeeId': 42, 'data.status': { $in: ['Ivo Kovač'] } }, ENTRY);
    expect(JSON.stringify(errors)).not.toMatch(/42|Ivo/);
  });
});

describe('matchesFilter: the rule applied to an event’s data', () => {
  const entry = {
    id: 'n1',
    employeeId: 'e1',
    status: 3,
    isRequest: false,
    departureDate: '2026-12-03',
    paidOutAt: null,
    sequence: 4,
  };
  const employee = { id: 'e1', departmentId: null, permissions: ['ReadAllEntries', 'ManageCompanyData'] };

  it.each<[string, PayloadFilter, Record<string, unknown>, boolean]>([
    ['a scalar is equality', { 'data.isRequest': false }, entry, true],
    ['equality of another value', { 'data.isRequest': true }, entry, false],
    ['every key must hold', { 'data.isRequest': false, 'data.employeeId': 'e2' }, entry, false],
    ['$in one of them', { 'data.employeeId': { $in: ['e2', 'e1'] } }, entry, true],
    ['$nin none of them', { 'data.employeeId': { $nin: ['e2', 'e1'] } }, entry, false],
    ['$neq another value', { 'data.status': { $neq: 4 } }, entry, true],
    ['a range holding 3: 1 ≤ 3 < 4', { 'data.status': { $gte: 1, $lt: 4 } }, entry, true],
    ['a range missing 3: 3 > 3 is false', { 'data.status': { $gt: 3 } }, entry, false],
    ['3 ≤ 3', { 'data.status': { $lte: 3 } }, entry, true],
    ['dates as strings: 2026-12-03 ≥ 2026-12-01', { 'data.departureDate': { $gte: '2026-12-01' } }, entry, true],
    [
      'dates as strings: 2026-12-03 < 2026-12-03 is false',
      { 'data.departureDate': { $lt: '2026-12-03' } },
      entry,
      false,
    ],
    ['null equals null', { 'data.paidOutAt': null }, entry, true],
    ['null is present', { 'data.paidOutAt': { $exist: true } }, entry, true],
    ['null is not greater than anything', { 'data.paidOutAt': { $gt: '2026-01-01' } }, entry, false],
    ['an absent field equals nothing, null neither', { 'data.sequence': null }, { id: 'n1' }, false],
    ['an absent field: $exist false', { 'data.sequence': { $exist: false } }, { id: 'n1' }, true],
    ['an absent field: $neq holds', { 'data.sequence': { $neq: 4 } }, { id: 'n1' }, true],
    ['an absent field: $nin holds', { 'data.sequence': { $nin: [4] } }, { id: 'n1' }, true],
    ['an absent field: a comparison fails', { 'data.sequence': { $gte: 0 } }, { id: 'n1' }, false],
    ['a present field: $exist false fails', { 'data.sequence': { $exist: false } }, entry, false],
    ['an array: one item equal', { 'data.permissions': 'ManageCompanyData' }, employee, true],
    ['an array: no item equal', { 'data.permissions': 'EditAllEntries' }, employee, false],
    ['an array: $nin none of the items', { 'data.permissions': { $nin: ['ReadAllEntries'] } }, employee, false],
    ['$or: one branch', { $or: [{ 'data.status': 4 }, { 'data.employeeId': 'e1' }] }, entry, true],
    ['$or: no branch', { $or: [{ 'data.status': 4 }, { 'data.employeeId': 'e2' }] }, entry, false],
    ['$and: every branch', { $and: [{ 'data.status': 3 }, { 'data.isRequest': false }] }, entry, true],
    ['$and: one branch fails', { $and: [{ 'data.status': 3 }, { 'data.isRequest': true }] }, entry, false],
    ['a number is not its string', { 'data.status': '3' }, entry, false],
  ])('%s', (_name, filter, data, expected) => {
    expect(matchesFilter(filter, data)).toBe(expected);
  });
});
