import type { Router } from 'express';
import { apiRouter, callerOf, route } from '@travel/platform';
import type { DocumentsApp } from '../app/documents';
import type { DocumentKind } from '../domain/documents/document';

const KINDS: readonly DocumentKind[] = ['travel-order', 'settlement'];

/** `GET /api/v1/travel-entries/{id}/documents/{travel-order|settlement}` → application/pdf (0137). */
export function documentRoutes(documents: DocumentsApp): Router {
  const r = apiRouter();
  for (const kind of KINDS)
    r.get(
      `/api/v1/travel-entries/:id/documents/${kind}`,
      route(async (req, res) => {
        const { fileName, pdf } = await documents.document(callerOf(req), String(req.params.id), kind);
        res.setHeader('content-type', 'application/pdf');
        res.setHeader('content-length', String(pdf.length));
        res.setHeader('content-disposition', `inline; filename="${fileName}"`);
        res.end(pdf);
      }),
    );
  return r;
}
