import type { Router } from 'express';
import { apiRouter } from '@travel/platform';

/**
 * No public route: the gateway sends `/api/v1/travel-entries/…/reading` to entries, which answers from its
 * projection of `receipts.reading.made`, so a read never waits on this CPU-bound service (0200).
 */
export const publicRoutes = (): Router => apiRouter();
