// Routes of the reference data: municipality lists (any tenant, same data), the statutory rate table of
// the caller's market, and the company's allow-lists (reads for every caller, writes need
// ManageCompanyData). Bodies and queries are already checked against the contract.
import type { Request, Router } from 'express';
import type { components } from '@travel/contracts';
import {
  answerByBody,
  apiRouter,
  callerOf,
  invalidField,
  pageRequest,
  requirePermission,
  route,
  type ConditionalGets,
} from '@travel/platform';
import { isDate } from '@travel/regulations';
import type { AllowList, ReferenceDataApp } from '../app/reference-data';
import type { AllowListKind } from '../domain/allow-lists';
import { ALLOW_LISTS_COLLECTION } from '../infra/allow-lists-store';
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

/**
 * The municipality lists and the statutory rates are data of the release, held in memory: their answers
 * are tagged by a hash of the body, so a 304 costs no store read at all and the tag changes exactly when a
 * deploy changes the data (docs/decisions/0159). The allow-lists answer from their collection's version.
 */
export function referenceDataRoutes(app: ReferenceDataApp, reads: ConditionalGets): Router {
  const r = apiRouter();

  r.get(
    '/api/v1/reference/slovenian-municipalities',
    route(async (req, res) => {
      const body: PageOf<Schemas['SlovenianMunicipality']> = app.slovenianMunicipalities(
        text(req.query.q),
        pageRequest(req.query),
      );
      answerByBody(req, res, body);
    }),
  );
  r.get(
    '/api/v1/reference/croatian-municipalities',
    route(async (req, res) => {
      const body: PageOf<Schemas['CroatianMunicipality']> = app.croatianMunicipalities(
        text(req.query.q),
        pageRequest(req.query),
      );
      answerByBody(req, res, body);
    }),
  );

  r.get(
    '/api/v1/reference/per-diem-rates',
    route(async (req, res) => {
      const country = text(req.query.country);
      if (country !== undefined && !isCountryCode(country)) {
        throw invalidField(
          'country',
          `${country} is not a country code the product knows (ISO 3166-1 alpha-2, or XK for Kosovo)`,
        );
      }
      const date = text(req.query.date);
      if (date !== undefined && !isDate(date)) throw invalidField('date', `${date} is not a calendar day (yyyy-MM-dd)`);
      const body: Schemas['PerDiemRates'] = app.perDiemRates(callerOf(req), country, date);
      answerByBody(req, res, body);
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
      route(async (req, res) => {
        const caller = callerOf(req);
        const lists = { collection: ALLOW_LISTS_COLLECTION };
        await reads.answer(req, res, caller, [lists], async () => toBody(await app.getAllowList(caller, kind)));
      }),
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
