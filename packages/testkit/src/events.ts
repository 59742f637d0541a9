import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@travel/platform';

/** The keys of EmployeeWebhookDto, as SPEC.md lists them (plus permissions): nothing personal, ever. */
export const EMPLOYEE_WEBHOOK_DTO_KEYS = [
  'createdAt',
  'departmentId',
  'editedAt',
  'firstName',
  'id',
  'isAccountOwner',
  'isArchived',
  'lastName',
  'permissions',
  'position',
  'status',
];

/** An `employee.created` domain event as the employees service's relay publishes it. */
export function employeeEvent(tenantId: string, lastName = 'Novak'): DomainEvent {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    type: 'employee.created',
    tenantId,
    occurredAt: now,
    data: {
      id: randomUUID(),
      firstName: 'Eva',
      lastName,
      position: null,
      departmentId: null,
      status: 'Active',
      isAccountOwner: false,
      isArchived: false,
      permissions: [],
      createdAt: now,
      editedAt: now,
    },
  };
}
