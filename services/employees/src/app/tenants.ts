import { randomUUID } from 'node:crypto';
import { parseTenantId, raiseEvent, type Market } from '@travel/platform';
import { issueApiKey } from '../domain/api-key';
import { BASE_CURRENCY, defaultEnabled } from '@travel/regulations';
import { ownerPermissions } from '../domain/permissions';
import { emailKeyOf, toEmployeeWebhookDto, type Employee } from '../domain/employee';
import type { EmployeesRepositories } from '../infra/repositories';

export interface CreatedTenant {
  tenantId: string;
  apiKey: string;
  employeeId: string;
}

/**
 * Operator use case (not on the public API): a company, its account owner with every permission, and
 * an API key for that owner, shown once. Each write is a single document; the owner's creation carries
 * its `employee.created` event in its outbox.
 */
export interface NewTenant {
  name: string;
  market: Market;
  address?: string;
  registrationNumber?: string;
  vatNumber?: string;
  ownerFirstName?: string;
  ownerLastName?: string;
}

export async function createTenant(repos: EmployeesRepositories, input: NewTenant): Promise<CreatedTenant> {
  // The one place a tenant id is minted.
  const tenantId = parseTenantId(randomUUID());
  const now = new Date();
  await repos.companies.of(tenantId).create({
    _id: tenantId,
    tenantId,
    name: input.name,
    market: input.market,
    baseCurrency: BASE_CURRENCY[input.market],
    address: input.address?.trim() || null,
    registrationNumber: input.registrationNumber?.trim() || null,
    vatNumber: input.vatNumber?.trim() || null,
    // The market's defaults, the same lists reference-fx answers until the company writes its own (0174).
    enabledCountries: defaultEnabled('countries', input.market),
    enabledCurrencies: defaultEnabled('currencies', input.market),
    createdAt: now,
  });

  const owner: Employee = {
    _id: randomUUID(),
    tenantId,
    firstName: input.ownerFirstName ?? 'Account',
    lastName: input.ownerLastName ?? 'Owner',
    email: null,
    phone: null,
    address: null,
    taxId: null,
    bankAccount: null,
    bic: null,
    position: null,
    departmentId: null,
    status: 'Active',
    isAccountOwner: true,
    isArchived: false,
    residency: 'Resident',
    mobileRoadTransportWorker: false,
    costCenterIds: [],
    customFields: {},
    permissions: ownerPermissions(),
    createdAt: now,
    editedAt: now,
  };
  await repos.employees
    .of(tenantId)
    .create(
      { ...owner, emailKey: emailKeyOf(owner), rev: 0 },
      raiseEvent('employees', 'employee.created', tenantId, toEmployeeWebhookDto(owner), now),
    );

  const issued = issueApiKey();
  await repos.apiKeys.of(tenantId).create({
    _id: randomUUID(),
    tenantId,
    employeeId: owner._id,
    name: 'Owner key (created by operator)',
    hint: issued.hint,
    hash: issued.hash,
    createdByEmployeeId: null,
    // The operator's key carries the account owner's flags as they are (docs/decisions/0104).
    permissionCap: null,
    createdAt: now,
    revokedAt: null,
  });
  return { tenantId, apiKey: issued.key, employeeId: owner._id };
}
