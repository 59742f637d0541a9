import { fetchFeed } from './fx-feed-fetcher';

describe('fetchFeed', () => {
  const options = { timeoutMs: 1000, retries: 2, retryDelayMs: 1 };

  it('retries a failed attempt and returns the first good answer', async () => {
    const answers = [
      new Error('ECONNRESET'),
      new Response('busy', { status: 503 }),
      new Response('ok', { status: 200 }),
    ];
    const seen: string[] = [];
    const fake = (async (url: string) => {
      seen.push(url);
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      return next;
    }) as unknown as typeof fetch;
    expect(await fetchFeed('https://feed.test/x', options, fake)).toBe('ok');
    expect(seen).toHaveLength(3);
  });

  it('gives up after the retries with the last failure', async () => {
    let calls = 0;
    const fake = (async () => {
      calls += 1;
      return new Response('gone', { status: 404 });
    }) as unknown as typeof fetch;
    await expect(fetchFeed('https://feed.test/y', options, fake)).rejects.toThrow('https://feed.test/y answered 404');
    expect(calls).toBe(3);
  });

  it('passes a time-out signal to every attempt', async () => {
    let signal: AbortSignal | undefined;
    const fake = (async (_url: string, init: RequestInit) => {
      signal = init.signal ?? undefined;
      return new Response('ok');
    }) as unknown as typeof fetch;
    await fetchFeed('https://feed.test/z', options, fake);
    expect(signal).toBeInstanceOf(AbortSignal);
  });
});
