// Routes of the reference data: municipality lists (any tenant, same data), the statutory rate table of
// the caller's market, and the company's allow-lists (reads for every caller, writes need
// ManageCompanyData). Bodies and queries are already checked against the contract.
import type { Request, Router } from 'express';
import type { components } from '@travel/contracts';
import { apiRouter, callerOf, invalidField, pageRequest, requirePermission, route } from '@travel/platform';
import { isDate } from '@travel/regulations';
import type { AllowList, ReferenceDataApp } from '../app/reference-data';
import type { AllowListKind } from '../domain/allow-lists';
import { isCountryCode } from '@travel/regulations';

type Schemas = components['schemas'];
interface PageOf<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

const MANAGE_COMPANY_DATA = 'ManageCompanyData';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function countryList(list: AllowList): Schemas['CountryAllowList'] {
  return { countryCodes: list.codes, isDefault: list.isDefault, editedAt: list.editedAt?.toISOString() ?? null };
}
function currencyList(list: AllowList): Schemas['CurrencyAllowList'] {
  return { currencyCodes: list.codes, isDefault: list.isDefault, editedAt: list.editedAt?.toISOString() ?? null };
}

export function referenceDataRoutes(app: ReferenceDataApp): Router {
  const r = apiRouter();

  r.get(
    '/api/v1/reference/slovenian-municipalities',
    route(async (req, res) => {
      const body: PageOf<Schemas['SlovenianMunicipality']> = app.slovenianMunicipalities(
        text(req.query.q),
        pageRequest(req.query),
      );
      res.json(body);
    }),
  );
  r.get(
    '/api/v1/reference/croatian-municipalities',
    route(async (req, res) => {
      const body: PageOf<Schemas['CroatianMunicipality']> = app.croatianMunicipalities(
        text(req.query.q),
        pageRequest(req.query),
      );
      res.json(body);
    }),
  );

  r.get(
    '/api/v1/reference/per-diem-rates',
    route(async (req, res) => {
      const country = text(req.query.country);
      if (country !== undefined && !isCountryCode(country)) {
        throw invalidField('country', `${country} is not an ISO 3166-1 alpha-2 code`);
      }
      const date = text(req.query.date);
      if (date !== undefined && !isDate(date)) throw invalidField('date', `${date} is not a calendar day (yyyy-MM-dd)`);
      const body: Schemas['PerDiemRates'] = app.perDiemRates(callerOf(req), country, date);
      res.json(body);
    }),
  );

  // GET for every caller; PUT (the whole list; a GET body is a valid PUT body) with ManageCompanyData.
  const allowList = <W>(
    kind: AllowListKind,
    path: string,
    codesOf: (body: W) => string[],
    toBody: (l: AllowList) => object,
  ) => {
    r.get(
      path,
      route(async (req, res) => void res.json(toBody(await app.getAllowList(callerOf(req), kind)))),
    );
    r.put(
      path,
      route(async (req: Request, res) => {
        const caller = requirePermission(req, MANAGE_COMPANY_DATA);
        res.json(toBody(await app.putAllowList(caller, kind, codesOf(req.body as W))));
      }),
    );
  };
  allowList<Schemas['CountryAllowListWrite']>(
    'countries',
    '/api/v1/reference/countries',
    (b) => b.countryCodes,
    countryList,
  );
  allowList<Schemas['CurrencyAllowListWrite']>(
    'currencies',
    '/api/v1/reference/currencies',
    (b) => b.currencyCodes,
    currencyList,
  );

  return r;
}
