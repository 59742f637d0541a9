/** Fetches a feed's text: a time-out per attempt, a few retries with a growing pause. Throws the last failure. */
export async function fetchFeed(
  url: string,
  options: { timeoutMs: number; retries: number; retryDelayMs: number },
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  let last: unknown;
  for (let attempt = 0; attempt <= options.retries; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs * attempt));
    try {
      const res = await fetchImpl(url, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { accept: 'application/json, application/xml, text/plain' },
        redirect: 'follow',
      });
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      return await res.text();
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}
