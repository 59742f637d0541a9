import type { Router } from 'express';
import { apiRouter, notFound, parseTenantId, route } from '@travel/platform';
import type { AttachmentsApp } from '../app/attachments';

/**
 * `GET /internal/tenants/{tenantId}/travel-entries/{entryId}/attachments/{attachmentId}/bytes`: the bytes of
 * a live entry's attachment with the content type it was uploaded with, for the receipts service's reading
 * (docs/decisions/0200; its client is `EntriesAttachmentsClient`). Service-to-service only: never routed by
 * the gateway. An entry or attachment that is gone is 404.
 */
export function internalAttachmentRoutes(attachments: AttachmentsApp): Router {
  const r = apiRouter();
  r.get(
    '/tenants/:tenantId/travel-entries/:entryId/attachments/:attachmentId/bytes',
    route(async (req, res) => {
      const found = await attachments.stored(
        parseTenantId(String(req.params.tenantId)),
        String(req.params.entryId),
        String(req.params.attachmentId),
      );
      if (!found) throw notFound('attachment');
      res.setHeader('content-type', found.attachment.contentType);
      res.setHeader('content-length', String(found.attachment.size));
      await new Promise<void>((resolve, reject) => {
        found.stream.once('error', reject);
        res.once('finish', () => resolve());
        found.stream.pipe(res);
      });
    }),
  );
  return r;
}
