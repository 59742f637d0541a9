import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import { canonicalTarget } from './request-path';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The canonical path and the query as sent (set by `canonicalPath`, the gateway's). */
      canonical?: { path: string; query: string };
    }
  }
}

/** The 400 of a refused path: `reason` names what it contains ("a dot segment"). */
export const refusedPath = (reason: string) =>
  new AppError('VALIDATION_FAILED', `The request path is refused: it contains ${reason}.`, { path: [reason] });

/** No operation of the API (or /internal) ends with "/"; the gateway's own pages may. */
export const TRAILING_SLASH = 'an empty segment ("/" at the end)';

/** The API and the internal routes, spelled exactly; the same words in another case are not them. */
const MOUNT_EXACT = /^\/(api\/v1|internal)(\/|$)/;
const MOUNT_ANY_CASE = /^\/(api\/v1|internal)(\/|$)/i;

/** The gateway's: 400 for a path the normaliser refuses, else the canonical form on `req.canonical`. */
export function canonicalPath(req: Request, _res: Response, next: NextFunction): void {
  const target = canonicalTarget(req.originalUrl);
  if (!target.ok) return next(refusedPath(target.reason));
  req.canonical = { path: target.path, query: target.query };
  next();
}

/**
 * A service's: only a path already in canonical form reaches a router, so the router, the contract
 * validator and the handler read the same string the gateway checked. `/API/V1/…` or `/Internal/…` is
 * 404 here, before any router could match it without the validator (decision 0097).
 */
export function requireCanonicalPath(req: Request, _res: Response, next: NextFunction): void {
  const target = canonicalTarget(req.originalUrl);
  if (!target.ok) return next(refusedPath(target.reason));
  if (req.originalUrl !== target.path + target.query)
    return next(refusedPath('escapes that are not in canonical form'));
  if (MOUNT_ANY_CASE.test(target.path) && !MOUNT_EXACT.test(target.path))
    return next(new AppError('NOT_FOUND', 'No resource at this path; paths are case-sensitive.'));
  if (MOUNT_EXACT.test(target.path) && target.path.endsWith('/')) return next(refusedPath(TRAILING_SLASH));
  next();
}
