import type { Router } from 'express';
import type { components } from '@travel/contracts';
import { apiRouter, callerOf, route } from '@travel/platform';
import type { PerDiemsApp } from '../app/per-diems';
import { entryFigures } from '../domain/entry-figures';
import { toPerDiemsOfEntry } from './per-diem-mappers';

type FromItineraryRequest = components['schemas']['PerDiemCalculationRequest'];

/** POST /api/v1/travel-entries/{id}/per-diems/from-itinerary (issue 14). */
export function perDiemRoutes(perDiems: PerDiemsApp): Router {
  const r = apiRouter();
  r.post(
    '/api/v1/travel-entries/:id/per-diems/from-itinerary',
    route(async (req, res) => {
      const body = req.body as FromItineraryRequest;
      const entry = await perDiems.fromItinerary(callerOf(req), String(req.params.id), body);
      res.json(toPerDiemsOfEntry(entry.perDiems ?? [], entryFigures(entry).perDiemTotal, entry.baseCurrency));
    }),
  );
  return r;
}
