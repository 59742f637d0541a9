import type { Request, Router } from 'express';
import {
  apiRouter,
  callerOf,
  requirePermission,
  route,
  type ConditionalGets,
  type ListRequest,
} from '@travel/platform';
import type { components } from '@travel/contracts';
import type { CostsApp } from '../app/costs';
import type { DeadlinesApp } from '../app/deadlines';
import type { DocumentsApp, UploadedFile } from '../app/documents';
import type { VehicleFilter, VehiclesApp } from '../app/vehicles';
import type { CostKind, CostWrite } from '../domain/cost';
import type { DeadlineWrite } from '../domain/deadline';
import { MANAGE_VEHICLES, type VehicleWrite } from '../domain/vehicle';
import { toCostResponse, toDeadlineResponse, toDocumentResponse, toVehicleResponse } from './mappers';

// Every write needs ManageVehicles, whatever else the caller holds (SPEC Authentication 3; issue 11).
// Reads need a key of the company; Personal vehicles are filtered in the use cases. Bodies and queries
// are already checked against the contract (except the vehicle `type`, checked by the domain so its error
// is keyed `Type`, as the spec names it).

type Schemas = components['schemas'];
type VehicleBody = Schemas['VehicleWrite'];
type CostBody = Schemas['VehicleCostWrite'];

export interface FleetContext {
  vehicles: VehiclesApp;
  costs: CostsApp;
  documents: DocumentsApp;
  deadlines: DeadlinesApp;
  /** GETs answered from the collections' versions (docs/decisions/0155, 0159). */
  reads: ConditionalGets;
  /** The collections the reads come from (a vehicle's lists read the vehicle too: who may see it). */
  collections: Record<'vehicles' | 'costs' | 'documents' | 'deadlines', { readonly collection: string }>;
}

/** The parts named `files` of a multipart request (multer, run by the contract validator, holds them in memory). */
function uploadedFiles(req: Request): UploadedFile[] {
  const parts = (req as Request & { files?: { fieldname: string; originalname?: string; buffer: Buffer }[] }).files;
  return (parts ?? [])
    .filter((p) => p.fieldname === 'files')
    .map((p) => ({ originalName: p.originalname, bytes: p.buffer }));
}

const param = (req: Request, name: string): string => String(req.params[name]);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true';
const writer = (req: Request) => requirePermission(req, MANAGE_VEHICLES);

// The contract's request types are the domain's write types (a compile error here means they drifted).
const vehicleWrite = (body: VehicleBody): VehicleWrite => body;
const costWrite = (body: CostBody): CostWrite => body;
const deadlineWrite = (body: Schemas['VehicleDeadlineWrite']): DeadlineWrite => body;

export function publicRoutes({ vehicles, costs, documents, deadlines, reads, collections: c }: FleetContext): Router {
  const r = apiRouter();

  r.get(
    '/api/v1/vehicles',
    route(async (req, res) => {
      const q = req.query;
      const filter: VehicleFilter = {
        type: text(q.type) as VehicleFilter['type'],
        isArchived: flag(q.isArchived),
        ownerEmployeeId: text(q.ownerEmployeeId),
      };
      const caller = callerOf(req);
      const read = (page: ListRequest) => vehicles.list(caller, filter, page);
      await reads.list(req, res, caller, [c.vehicles], read, toVehicleResponse);
    }),
  );
  r.post(
    '/api/v1/vehicles',
    route(async (req, res) => {
      const body: Schemas['Vehicle'] = toVehicleResponse(
        await vehicles.create(writer(req), vehicleWrite(req.body as VehicleBody)),
      );
      res.status(201).json(body);
    }),
  );
  r.get(
    '/api/v1/vehicles/:id',
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [c.vehicles], async () => {
        const body: Schemas['Vehicle'] = toVehicleResponse(await vehicles.get(caller, param(req, 'id')));
        return body;
      });
    }),
  );
  r.put(
    '/api/v1/vehicles/:id',
    route(async (req, res) => {
      const body: Schemas['Vehicle'] = toVehicleResponse(
        await vehicles.update(writer(req), param(req, 'id'), vehicleWrite(req.body as VehicleBody)),
      );
      res.json(body);
    }),
  );
  r.delete(
    '/api/v1/vehicles/:id',
    route(async (req, res) => {
      await vehicles.delete(writer(req), param(req, 'id'));
      res.status(204).end();
    }),
  );
  for (const [action, isArchived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    r.post(
      `/api/v1/vehicles/:id/${action}`,
      route(async (req, res) => {
        const body: Schemas['Vehicle'] = toVehicleResponse(
          await vehicles.setArchived(writer(req), param(req, 'id'), isArchived),
        );
        res.json(body);
      }),
    );
  }

  r.get(
    '/api/v1/vehicles/:id/costs',
    route(async (req, res) => {
      const filter = { kind: text(req.query.kind) as CostKind | undefined };
      const caller = callerOf(req);
      const read = (page: ListRequest) => costs.list(caller, param(req, 'id'), filter, page);
      await reads.list(req, res, caller, [c.costs, c.vehicles], read, toCostResponse);
    }),
  );
  r.post(
    '/api/v1/vehicles/:id/costs',
    route(async (req, res) => {
      const body: Schemas['VehicleCost'] = toCostResponse(
        await costs.create(writer(req), param(req, 'id'), costWrite(req.body as CostBody)),
      );
      res.status(201).json(body);
    }),
  );
  r.put(
    '/api/v1/vehicles/:id/costs/:costId',
    route(async (req, res) => {
      const body: Schemas['VehicleCost'] = toCostResponse(
        await costs.update(writer(req), param(req, 'id'), param(req, 'costId'), costWrite(req.body as CostBody)),
      );
      res.json(body);
    }),
  );
  r.delete(
    '/api/v1/vehicles/:id/costs/:costId',
    route(async (req, res) => {
      await costs.delete(writer(req), param(req, 'id'), param(req, 'costId'));
      res.status(204).end();
    }),
  );

  r.get(
    '/api/v1/vehicles/:id/documents',
    route(async (req, res) => {
      const caller = callerOf(req);
      const read = (page: ListRequest) => documents.list(caller, param(req, 'id'), page);
      await reads.list(req, res, caller, [c.documents, c.vehicles], read, toDocumentResponse);
    }),
  );
  r.post(
    '/api/v1/vehicles/:id/documents',
    route(async (req, res) => {
      const stored = await documents.upload(writer(req), param(req, 'id'), uploadedFiles(req));
      const body: { items: Schemas['VehicleDocument'][] } = { items: stored.items.map(toDocumentResponse) };
      res.status(201).json(body);
    }),
  );
  r.get(
    '/api/v1/vehicles/:id/documents/:documentId',
    route(async (req, res) => {
      const { document, bytes } = await documents.download(callerOf(req), param(req, 'id'), param(req, 'documentId'));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.attachment(document.fileName);
      res.type(document.contentType).send(bytes);
    }),
  );
  r.delete(
    '/api/v1/vehicles/:id/documents/:documentId',
    route(async (req, res) => {
      await documents.delete(writer(req), param(req, 'id'), param(req, 'documentId'));
      res.status(204).end();
    }),
  );

  r.get(
    '/api/v1/vehicles/:id/deadlines',
    route(async (req, res) => {
      const caller = callerOf(req);
      const read = (page: ListRequest) => deadlines.list(caller, param(req, 'id'), page);
      await reads.list(req, res, caller, [c.deadlines, c.vehicles], read, toDeadlineResponse);
    }),
  );
  r.post(
    '/api/v1/vehicles/:id/deadlines',
    route(async (req, res) => {
      const body: Schemas['VehicleDeadline'] = toDeadlineResponse(
        await deadlines.create(
          writer(req),
          param(req, 'id'),
          deadlineWrite(req.body as Schemas['VehicleDeadlineWrite']),
        ),
      );
      res.status(201).json(body);
    }),
  );
  r.put(
    '/api/v1/vehicles/:id/deadlines/:deadlineId',
    route(async (req, res) => {
      const body: Schemas['VehicleDeadline'] = toDeadlineResponse(
        await deadlines.update(
          writer(req),
          param(req, 'id'),
          param(req, 'deadlineId'),
          deadlineWrite(req.body as Schemas['VehicleDeadlineWrite']),
        ),
      );
      res.json(body);
    }),
  );
  r.delete(
    '/api/v1/vehicles/:id/deadlines/:deadlineId',
    route(async (req, res) => {
      await deadlines.delete(writer(req), param(req, 'id'), param(req, 'deadlineId'));
      res.status(204).end();
    }),
  );
  return r;
}
