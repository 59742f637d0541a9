import { randomUUID } from 'node:crypto';
import { AppError, CONTEXT_HEADER, mintContext } from '@travel/platform';

/** A call to another service's internal API as the payouts service; unreachable or 5xx is 503 (retry). */
export async function callService(
  target: string,
  url: string,
  contextSecret: string,
  init: { method?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        [CONTEXT_HEADER]: mintContext({ kind: 'service', service: 'payouts', requestId: randomUUID() }, contextSecret),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
    });
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', `The ${target} service did not answer; try again.`);
  }
  if (!res.ok) throw new AppError('SERVICE_UNAVAILABLE', `The ${target} service answered ${res.status}; try again.`);
  return res;
}
