import { randomUUID } from 'node:crypto';
import type { ResolvedApiKey } from '@travel/contracts';
import {
  AppError,
  notFound,
  paginate,
  parseTenantId,
  tenantOf,
  type CallerContext,
  type FieldErrors,
  type Market,
  type PageRequest,
  throwIfInvalid,
} from '@travel/platform';
import { hashApiKey, issueApiKey, issuerActingFor, keyRights, looksLikeApiKey, type ApiKey } from '../domain/api-key';
import { addFieldError, requiredText } from '../domain/text';
import type { ApiKeyDoc, EmployeesRepositories } from '../infra/repositories';

/** A key just issued: its record and the key itself, shown this once (it is stored hashed). */
export interface IssuedApiKey {
  apiKey: ApiKey;
  key: string;
}

/** What the internal resolve route answers (published with the employees client, contracts/src/clients). */
export type ResolvedKey = ResolvedApiKey;

/**
 * The gateway's question, answered by the context that owns keys: which caller is this key? A revoked
 * key, an inactive or archived employee or issuer (of a key for someone else), or an unknown key all
 * answer `undefined` (the gateway says 401). The key's employee and its issuer are one read, beside the
 * company's: resolution runs on every request the gateway has not cached (docs/decisions/0197).
 */
export async function resolveApiKey(repos: EmployeesRepositories, key: string): Promise<ResolvedKey | undefined> {
  if (!looksLikeApiKey(key)) return undefined;
  const row = await repos.findUnrevokedKeyByHash(hashApiKey(key));
  if (!row) return undefined;
  // The stored key names its tenant: from here on every read is that tenant's.
  const tenant = parseTenantId(row.tenantId);
  const issuerId = issuerActingFor(row);
  const [people, company] = await Promise.all([
    repos.employees
      .of(tenant)
      .find({ _id: { $in: issuerId ? [row.employeeId, issuerId] : [row.employeeId] } })
      .select({ _id: 1, status: 1, isArchived: 1, permissions: 1 })
      .lean(),
    repos.companies.of(tenant).findOne().lean(),
  ]);
  const employee = people.find((p) => p._id === row.employeeId);
  const issuer = issuerId ? people.find((p) => p._id === issuerId) : undefined;
  const permissions = keyRights(row, employee, issuer);
  if (!employee || !company || !permissions) return undefined;
  return {
    tenantId: row.tenantId,
    market: company.market as Market,
    baseCurrency: company.baseCurrency,
    employeeId: employee._id,
    apiKeyId: row._id,
    permissions,
    ...(issuerId ? { keyIssuedByEmployeeId: issuerId } : {}),
  };
}

export interface ApiKeyFilter {
  employeeId?: string;
  /** The issuer; the contract has checked it is an id. */
  createdByEmployeeId?: string;
  revoked?: boolean;
}

export interface CreateApiKeyInput {
  name: string;
  employeeId?: string;
}

/** API keys of the company: issued for an employee, shown once, listed by hint, revocable. */
export class ApiKeysApp {
  constructor(private readonly repos: EmployeesRepositories) {}

  private scope(caller: CallerContext) {
    return this.repos.apiKeys.of(tenantOf(caller));
  }

  /**
   * The company's keys, newest first; `createdByEmployeeId` lists what one person issued (what to reissue
   * before archiving them, docs/decisions/0197).
   */
  async list(caller: CallerContext, filter: ApiKeyFilter, page: PageRequest) {
    const query: Record<string, unknown> = {};
    if (filter.employeeId) query.employeeId = filter.employeeId.toLowerCase();
    if (filter.createdByEmployeeId) query.createdByEmployeeId = filter.createdByEmployeeId.toLowerCase();
    if (filter.revoked !== undefined) query.revokedAt = filter.revoked ? { $ne: null } : null;
    return paginate<ApiKeyDoc, ApiKey>(this.scope(caller), query, page, { createdAt: -1, _id: 1 }, (k) => k);
  }

  /**
   * Issues a key for `employeeId` (default: the caller). The key acts with that employee's permissions, so
   * the caller must hold every one of them: issuing a key is never a way to gain a permission
   * (docs/decisions/0013-api-keys.md). The key is capped at the caller's flags as they are now, also a key
   * for oneself: a flag its employee is granted later does not reach it (docs/decisions/0104). The key itself
   * is in this response only; it is stored hashed.
   */
  async create(caller: CallerContext, input: CreateApiKeyInput): Promise<IssuedApiKey> {
    const name = requiredText(input.name);
    const employeeId = (input.employeeId ?? caller.employeeId).toLowerCase();
    const employee = await this.repos.employees.of(tenantOf(caller)).findById(employeeId).lean();
    const errors: FieldErrors = {};
    addFieldError(errors, 'name', name.problem);
    if (!employee) errors.employeeId = ['must be an employee of this company'];
    else if (employee.status !== 'Active' || employee.isArchived) {
      errors.employeeId = ['must be an active, unarchived employee (a key of anyone else would not work)'];
    }
    throwIfInvalid(errors);
    const lacking = (employee!.permissions ?? []).filter((flag) => !caller.permissions.includes(flag));
    if (lacking.length) {
      throw new AppError(
        'FORBIDDEN',
        `A key acts with its employee's permissions; issuing one for this employee requires holding ${lacking.join(', ')}.`,
      );
    }
    const issued = issueApiKey();
    const row: ApiKey = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      employeeId,
      name: name.value,
      hint: issued.hint,
      hash: issued.hash,
      createdByEmployeeId: caller.employeeId,
      permissionCap: [...caller.permissions],
      createdAt: new Date(),
      revokedAt: null,
    };
    await this.scope(caller).create(row);
    return { apiKey: row, key: issued.key };
  }

  /**
   * Revokes a key: it stops resolving at once, and the gateway, which caches resolutions for
   * API_KEY_CACHE_MS (5 s by default), refuses it within that time. Revoking a revoked key changes nothing.
   */
  async revoke(caller: CallerContext, rawId: string): Promise<void> {
    const id = rawId.toLowerCase();
    const row = await this.scope(caller).findById(id).select({ _id: 1, revokedAt: 1 }).lean();
    if (!row) throw notFound('API key');
    if (!row.revokedAt)
      await this.scope(caller).updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: new Date() } });
  }
}
