// GET / PUT /api/v1/per-diem-policy (reads for every caller of the company, the PUT with ManageCompanyData;
// a GET body is a valid PUT body) and the internal read entries prices per-diem rows with.
// Bodies are already checked against the contract; read-only fields are already dropped.
import type { Router } from 'express';
import { PER_DIEM_POLICY_SEGMENT, type components, type PerDiemPolicy } from '@travel/contracts';
import { toWireNumber, decimalFromText } from '@travel/money';
import { apiRouter, callerOf, parseTenantId, requirePermission, route, type ConditionalGets } from '@travel/platform';
import type { PerDiemPolicyApp, StoredPolicy } from '../app/per-diem-policy';
import type { PerDiemPolicyWrite } from '../domain/per-diem-policy';
import { PER_DIEM_POLICIES_COLLECTION } from '../infra/per-diem-policy-store';

type Schemas = components['schemas'];
const MANAGE_COMPANY_DATA = 'ManageCompanyData';
const PATH = `/api/v1/${PER_DIEM_POLICY_SEGMENT}`;

const wire = (text: string): number => toWireNumber(decimalFromText(text));

export function toPolicyBody(p: StoredPolicy): Schemas['PerDiemPolicy'] {
  return {
    sector: p.sector,
    versions: p.versions.map((v) => ({
      effectiveFrom: v.effectiveFrom,
      domesticBands: v.domesticBands.map((b) => ({ band: b.band, amount: wire(b.amount) })),
      foreignBaseRatePercent: v.foreignBaseRatePercent === null ? null : wire(v.foreignBaseRatePercent),
      foreignRates: (v.foreignRates ?? []).map((r) => ({
        countryCode: r.countryCode as Schemas['PerDiemPolicyForeignRate']['countryCode'],
        amount: wire(r.amount),
        currencyCode: r.currencyCode as Schemas['PerDiemPolicyForeignRate']['currencyCode'],
        confirmedBy: r.confirmedBy,
        confirmedAt: r.confirmedAt,
      })),
    })),
    editedAt: p.editedAt?.toISOString() ?? null,
  };
}

export function perDiemPolicyRoutes(app: PerDiemPolicyApp, reads: ConditionalGets): Router {
  const r = apiRouter();
  r.get(
    PATH,
    route(async (req, res) => {
      const caller = callerOf(req);
      const policies = { collection: PER_DIEM_POLICIES_COLLECTION };
      await reads.answer(req, res, caller, [policies], async () => toPolicyBody(await app.getFor(caller)));
    }),
  );
  r.put(
    PATH,
    route(async (req, res) => {
      const caller = requirePermission(req, MANAGE_COMPANY_DATA);
      res.json(toPolicyBody(await app.put(caller, req.body as PerDiemPolicyWrite)));
    }),
  );
  return r;
}

/** Service-to-service: the policy as stored (decimal text), mounted under /internal. */
export function perDiemPolicyInternalRoutes(app: PerDiemPolicyApp): Router {
  const r = apiRouter();
  r.get(
    `/tenants/:tenantId/${PER_DIEM_POLICY_SEGMENT}`,
    route(async (req, res) => {
      // The tenant comes from another service behind a verified service context: a trusted seam.
      const { sector, versions } = await app.get(parseTenantId(String(req.params.tenantId)));
      res.json({ sector, versions } satisfies PerDiemPolicy);
    }),
  );
  return r;
}
