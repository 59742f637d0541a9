import { randomUUID } from 'node:crypto';
import {
  TenantScope,
  conflict,
  notFound,
  outboxUpdate,
  paginate,
  raiseEvent,
  withOutbox,
  type CallerContext,
  type PageRequest,
} from '@travel/platform';
import { expandPermissions } from '../domain/permissions';
import { toEmployeeResponse, toEmployeeWebhookDto, type Employee } from '../domain/employee';
import type { EmployeeDoc, EmployeesModels } from '../infra/models';

export interface EmployeeInput {
  firstName: string;
  lastName: string;
  email?: string | null;
  phone?: string | null;
  address?: string | null;
  taxId?: string | null;
  bankAccount?: string | null;
  bic?: string | null;
  position?: string | null;
  departmentId?: string | null;
  status?: 'Active' | 'Inactive';
  isArchived?: boolean;
  residency?: 'Resident' | 'NonResident';
  costCenterIds?: string[];
  customFields?: Record<string, unknown>;
  permissions?: string[];
}

export class EmployeesApp {
  constructor(
    private readonly models: EmployeesModels,
    private readonly nudgeOutbox: () => void,
  ) {}

  private scope(caller: CallerContext) {
    return new TenantScope<EmployeeDoc>(this.models.Employee, caller.tenantId);
  }

  private async assertEmailFree(caller: CallerContext, email: string | null | undefined, exceptId?: string) {
    if (!email) return;
    const clash = await this.scope(caller).find({ email: email.toLowerCase(), ...(exceptId ? { _id: { $ne: exceptId } } : {}) }).limit(1).lean();
    if (clash.length) throw conflict('Another employee of this company has this e-mail address.');
  }

  async create(caller: CallerContext, input: EmployeeInput) {
    await this.assertEmailFree(caller, input.email);
    const now = new Date();
    const employee: Employee = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      email: input.email?.toLowerCase() ?? null,
      phone: input.phone ?? null,
      address: input.address ?? null,
      taxId: input.taxId ?? null,
      bankAccount: input.bankAccount ?? null,
      bic: input.bic ?? null,
      position: input.position ?? null,
      departmentId: input.departmentId ?? null,
      status: input.status ?? 'Active',
      isAccountOwner: false,
      isArchived: input.isArchived ?? false,
      residency: input.residency ?? 'Resident',
      costCenterIds: [...new Set(input.costCenterIds ?? [])],
      customFields: input.customFields ?? {},
      permissions: expandPermissions(input.permissions ?? []),
      createdAt: now,
      editedAt: now,
    };
    const event = raiseEvent('employees', 'employee.created', caller.tenantId, toEmployeeWebhookDto(employee), now);
    await this.models.Employee.create({ ...employee, ...withOutbox(event) });
    this.nudgeOutbox();
    return toEmployeeResponse(employee);
  }

  async get(caller: CallerContext, id: string) {
    const doc = await this.scope(caller).findById(id).lean<EmployeeDoc>();
    if (!doc) throw notFound('employee');
    return toEmployeeResponse(doc);
  }

  async list(caller: CallerContext, page: PageRequest) {
    return paginate<EmployeeDoc, ReturnType<typeof toEmployeeResponse>>(this.scope(caller), {}, page, { lastName: 1, firstName: 1, _id: 1 }, toEmployeeResponse);
  }

  /** Applies a change and raises `employee.updated` in the same single-document write. */
  async update(caller: CallerContext, id: string, change: (current: Employee) => Partial<Employee>) {
    const current = await this.scope(caller).findById(id).lean<EmployeeDoc>();
    if (!current) throw notFound('employee');
    const next: Employee = { ...current, ...change(current), editedAt: new Date() };
    await this.assertEmailFree(caller, next.email, id);
    const event = raiseEvent('employees', 'employee.updated', caller.tenantId, toEmployeeWebhookDto(next), next.editedAt);
    const { _id, tenantId, createdAt: _createdAt, ...fields } = next;
    delete (fields as Partial<EmployeeDoc>).outbox;
    delete (fields as Partial<EmployeeDoc>).outboxCount;
    await this.models.Employee.updateOne({ _id, tenantId }, outboxUpdate({ $set: fields }, event));
    this.nudgeOutbox();
    return toEmployeeResponse(next);
  }
}
