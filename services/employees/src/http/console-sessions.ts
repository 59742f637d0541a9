import type { Request, Router } from 'express';
import { apiRouter, AppError, route } from '@travel/platform';
import type { ConsoleSessionsApp } from '../app/console-sessions';

/** Only the gateway signs the console in and out; no other service may read or end a session. */
function requireGateway(req: Request): void {
  if (req.internal?.kind !== 'service' || req.internal.service !== 'gateway')
    throw new AppError('FORBIDDEN', 'Only the gateway keeps console sessions.');
}

/** `/internal/console-sessions/{sessionId}`: the gateway's record of console sign-ins (docs/decisions/0193). */
export function consoleSessionRoutes(sessions: ConsoleSessionsApp): Router {
  const r = apiRouter();
  r.put(
    '/console-sessions/:sessionId',
    route(async (req, res) => {
      requireGateway(req);
      await sessions.record(req.params.sessionId, req.body);
      res.status(204).end();
    }),
  );
  r.get(
    '/console-sessions/:sessionId',
    route(async (req, res) => {
      requireGateway(req);
      res.json(await sessions.live(req.params.sessionId));
    }),
  );
  r.delete(
    '/console-sessions/:sessionId',
    route(async (req, res) => {
      requireGateway(req);
      await sessions.end(req.params.sessionId);
      res.status(204).end();
    }),
  );
  return r;
}
