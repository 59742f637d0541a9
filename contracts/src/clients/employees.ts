// The employees context's internal routes (services/employees/src/http/internal.ts) and the one client
// the gateway, entries, fleet and payouts call them with. Personal data (contact, payees, document parties) travels
// only over these service-to-service routes, never through the gateway or in an event.
import type { components } from '../../generated/openapi';
import { idsQuery, tenantPath, type InternalTransport } from './transport';

type Employee = components['schemas']['Employee'];

/** `POST /internal/api-keys/resolve` `{ key }`: who an API key stands for (the gateway's key check). */
export interface ResolvedApiKey {
  tenantId: string;
  market: components['schemas']['Company']['market'];
  baseCurrency: string;
  employeeId: string;
  apiKeyId: string;
  /** The employee's current flags within the key's cap (decision 0104). */
  permissions: string[];
  /** Who issued the key, when that is not its employee: the key acts for someone else. */
  keyIssuedByEmployeeId?: string;
}

/** `GET …/employees/{id}`: identity, state and the per-diem profile; no personal data. */
export interface InternalEmployee {
  id: string;
  status: Employee['status'];
  isArchived: boolean;
  /** The SI tax-free cap depends on it. */
  residency: components['schemas']['Residency'];
  /** The SK foreign rates depend on it. */
  mobileRoadTransportWorker: boolean;
  /** The expense policy's rules may be narrowed to a department (entries, docs/decisions/0203). */
  departmentId?: string | null;
}

/** `GET …/org-units?departmentIds=&costCenterIds=`: those of the ids asked that are the company's. */
export interface KnownOrgUnits {
  departmentIds: string[];
  costCenterIds: string[];
}

/** What the per-diem rules read of an employee. */
export type PerDiemProfile = Pick<InternalEmployee, 'residency' | 'mobileRoadTransportWorker'>;

/** `GET …/employees/{id}/contact`: the address a reminder goes to (fleet's deadline e-mails). */
export interface EmployeeContact {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  status: string;
  isArchived: boolean;
}

/** `GET …/employees/{id}/chargeable-cost-centers?ids=`: those of `ids` the employee may charge. */
export interface ChargeableCostCenters {
  employeeId: string;
  chargeable: string[];
}

/** `GET …/account-owners`: the company's active account owners (decision 0105). */
export interface AccountOwners {
  employeeIds: string[];
}

/** `GET …/employees/{id}/delegators?on=`: the approvers whose delegate the employee is that day (0205). */
export interface Delegators {
  employeeId: string;
  on: string;
  employeeIds: string[];
}

export interface Payee {
  id: string;
  name: string;
  bankAccount: string | null;
  bic: string | null;
}

/** `GET …/payees?ids=`: the payer's name and the payees' bank data, for a payment file only (0076). */
export interface Payees {
  company: { name: string; market: string; baseCurrency: string };
  payees: Payee[];
}

/** `GET …/document-parties?ids=`: the company's details and people's names, for printed papers (0137). */
export interface DocumentParties {
  company: { name: string; address: string | null; registrationNumber: string | null; vatNumber: string | null };
  people: { id: string; name: string }[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The employees service as other contexts ask it. 404 is "not the company's" (null, false); an
 * unreachable or failing employees service is 503 (the partner's client retries), never a wrong answer.
 */
export class EmployeesClient {
  constructor(private readonly transport: InternalTransport) {}

  /** Who the key stands for; null when it is unknown, revoked or its employee inactive (401). */
  async resolveApiKey(key: string): Promise<ResolvedApiKey | null> {
    const res = await this.transport.send('POST', '/api-keys/resolve', { key });
    if (res.status === 401) return null;
    if (!res.ok) throw this.transport.failed(res);
    return (await res.json()) as ResolvedApiKey;
  }

  /** Whether the employee belongs to the company (fleet: a vehicle's owner; entries: an entry's employee). */
  exists(tenantId: string, employeeId: string): Promise<boolean> {
    return this.transport.exists(tenantPath(tenantId, 'employees', employeeId));
  }

  /** Which of `costCenterIds` the employee may charge; null when the employee is not the company's. */
  async chargeable(tenantId: string, employeeId: string, costCenterIds: readonly string[]): Promise<string[] | null> {
    const body = await this.transport.getOrNull<ChargeableCostCenters>(
      `${tenantPath(tenantId, 'employees', employeeId, 'chargeable-cost-centers')}${idsQuery(costCenterIds)}`,
    );
    return body?.chargeable ?? null;
  }

  /** The company's active account owners: the default fallback approvers. */
  async accountOwners(tenantId: string): Promise<string[]> {
    const body = await this.transport.getOrNull<AccountOwners>(tenantPath(tenantId, 'account-owners'));
    return body?.employeeIds ?? [];
  }

  /**
   * The approvers who named the employee their delegate for `day` (`yyyy-MM-dd`, the market's calendar),
   * both still active: whose approval steps the employee may decide that day. Not transitive.
   */
  async delegatorsOf(tenantId: string, employeeId: string, day: string): Promise<string[]> {
    if (!UUID.test(employeeId)) return [];
    const body = await this.transport.getOrNull<Delegators>(
      `${tenantPath(tenantId, 'employees', employeeId, 'delegators')}?on=${encodeURIComponent(day)}`,
    );
    return body?.employeeIds ?? [];
  }

  /** The employee's per-diem profile; null when there is no such employee in the company. */
  async perDiemProfileOf(tenantId: string, employeeId: string): Promise<PerDiemProfile | null> {
    // Not an id at all: no such employee (the path would be refused, read as a 503).
    if (!UUID.test(employeeId)) return null;
    const body = await this.transport.getOrNull<Partial<InternalEmployee>>(
      tenantPath(tenantId, 'employees', employeeId),
    );
    if (body === null) return null;
    return {
      residency: body.residency ?? 'Resident',
      mobileRoadTransportWorker: body.mobileRoadTransportWorker ?? false,
    };
  }

  /** The employee's department (null: none); null too when there is no such employee in the company. */
  async departmentOf(tenantId: string, employeeId: string): Promise<string | null> {
    if (!UUID.test(employeeId)) return null;
    const body = await this.transport.getOrNull<Partial<InternalEmployee>>(
      tenantPath(tenantId, 'employees', employeeId),
    );
    return body?.departmentId ?? null;
  }

  /** Which of the departments and cost centers asked are the company's (an expense policy names them). */
  knownOrgUnits(tenantId: string, asked: KnownOrgUnits): Promise<KnownOrgUnits> {
    const query = new URLSearchParams({
      departmentIds: asked.departmentIds.join(','),
      costCenterIds: asked.costCenterIds.join(','),
    });
    return this.transport.getJson<KnownOrgUnits>(`${tenantPath(tenantId, 'org-units')}?${query}`);
  }

  /** Name and e-mail address for a reminder; null when the employee is not the company's. */
  contact(tenantId: string, employeeId: string): Promise<EmployeeContact | null> {
    return this.transport.getOrNull<EmployeeContact>(tenantPath(tenantId, 'employees', employeeId, 'contact'));
  }

  /**
   * The company's market; null when employees does not know the company. The payees route asked for no
   * payee: the company part only, nothing personal (the receipts back-fill's hint, docs/decisions/0202).
   */
  async marketOf(tenantId: string): Promise<string | null> {
    const body = await this.transport.getOrNull<Payees>(`${tenantPath(tenantId, 'payees')}${idsQuery([])}`);
    return body?.company.market ?? null;
  }

  /** The payer's name and the payees' bank data; anything but 2xx (no company included) is 503. */
  payees(tenantId: string, employeeIds: readonly string[]): Promise<Payees> {
    return this.transport.getJson<Payees>(`${tenantPath(tenantId, 'payees')}${idsQuery(employeeIds)}`);
  }

  /** The company's details and people's names; a company employees does not know is 503. */
  async documentParties(tenantId: string, employeeIds: readonly string[]): Promise<DocumentParties> {
    const body = await this.transport.getOrNull<DocumentParties>(
      `${tenantPath(tenantId, 'document-parties')}${idsQuery(employeeIds)}`,
    );
    if (body === null) throw this.transport.unavailable('The company is not known to the employees service.');
    return body;
  }
}
