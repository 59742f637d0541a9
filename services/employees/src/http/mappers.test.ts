import { toCostCenterResponse, toDepartmentResponse } from './mappers';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';

describe('department and cost-center bodies', () => {
  const at = new Date('2026-11-01T10:00:00.000Z');

  it('show a department without its storage fields', () => {
    const out = toDepartmentResponse({
      _id: A,
      tenantId: 't',
      name: 'Sales',
      code: 'S',
      codeKey: 'S',
      parentId: null,
      createdAt: at,
      editedAt: at,
      rev: 3,
    });
    expect(out).toEqual({
      id: A,
      name: 'Sales',
      code: 'S',
      parentId: null,
      createdAt: at.toISOString(),
      editedAt: at.toISOString(),
    });
  });

  it('show a cost center without its storage fields', () => {
    const out = toCostCenterResponse({
      _id: A,
      tenantId: 't',
      name: 'Field',
      code: 'F',
      codeKey: 'F',
      description: null,
      isActive: false,
      createdAt: at,
      editedAt: at,
      rev: 0,
    });
    expect(Object.keys(out).sort()).toEqual(['code', 'createdAt', 'description', 'editedAt', 'id', 'isActive', 'name']);
  });
});
