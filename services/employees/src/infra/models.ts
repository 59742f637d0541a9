import { Schema, type Connection, type Model } from 'mongoose';
import { outboxSchemaFields, type OutboxFields } from '@travel/platform';
import type { Employee } from '../domain/employee';

export interface CompanyDoc {
  _id: string;
  tenantId: string;
  name: string;
  market: string;
  baseCurrency: string;
  address: string | null;
  registrationNumber: string | null;
  vatNumber: string | null;
  enabledCountries: string[];
  enabledCurrencies: string[];
  createdAt: Date;
}

export interface ApiKeyDoc {
  _id: string;
  tenantId: string;
  employeeId: string;
  name: string;
  hint: string;
  hash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export type EmployeeDoc = Employee & OutboxFields;

const nullableString = { type: String, default: null };

export interface EmployeesModels {
  Company: Model<CompanyDoc>;
  Employee: Model<EmployeeDoc>;
  ApiKey: Model<ApiKeyDoc>;
}

export const EMPLOYEES_COLLECTION = 'employees';

export function registerModels(conn: Connection): EmployeesModels {
  // Idempotent: the admin command, the seeding script and tests may ask again on one connection.
  if (conn.models.Company) return { Company: conn.models.Company, Employee: conn.models.Employee, ApiKey: conn.models.ApiKey } as EmployeesModels;
  const company = new Schema<CompanyDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true, unique: true },
      name: { type: String, required: true },
      market: { type: String, required: true },
      baseCurrency: { type: String, required: true },
      address: nullableString,
      registrationNumber: nullableString,
      vatNumber: nullableString,
      enabledCountries: [String],
      enabledCurrencies: [String],
      createdAt: { type: Date, required: true },
    },
    { collection: 'companies', versionKey: false },
  );

  const employee = new Schema<EmployeeDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      firstName: { type: String, required: true },
      lastName: { type: String, required: true },
      email: nullableString,
      phone: nullableString,
      address: nullableString,
      taxId: nullableString,
      bankAccount: nullableString,
      bic: nullableString,
      position: nullableString,
      departmentId: nullableString,
      status: { type: String, required: true },
      isAccountOwner: { type: Boolean, default: false },
      isArchived: { type: Boolean, default: false },
      residency: { type: String, default: 'Resident' },
      costCenterIds: { type: [String], default: [] },
      customFields: { type: Object, default: {} },
      permissions: { type: [String], default: [] },
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
      ...outboxSchemaFields,
    },
    { collection: EMPLOYEES_COLLECTION, versionKey: false, minimize: false },
  );
  employee.index({ tenantId: 1, lastName: 1, firstName: 1 });
  employee.index({ tenantId: 1, email: 1 });

  const apiKey = new Schema<ApiKeyDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      employeeId: { type: String, required: true },
      name: { type: String, required: true },
      hint: { type: String, required: true },
      // Global on purpose: the key is what identifies the tenant (docs/decisions/0004).
      hash: { type: String, required: true, unique: true },
      createdAt: { type: Date, required: true },
      revokedAt: { type: Date, default: null },
    },
    { collection: 'api_keys', versionKey: false },
  );
  apiKey.index({ tenantId: 1, createdAt: -1 });

  return {
    Company: conn.model<CompanyDoc>('Company', company),
    Employee: conn.model<EmployeeDoc>('Employee', employee),
    ApiKey: conn.model<ApiKeyDoc>('ApiKey', apiKey),
  };
}
