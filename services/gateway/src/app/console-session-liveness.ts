import { Lru } from '../domain/lru';

/** Where the console's sessions are recorded (the employees service; a fake in tests). */
export interface ConsoleSessionRecords {
  record(sessionId: string, record: { apiKeyId: string; expiresAt: string }): Promise<void>;
  isLive(sessionId: string): Promise<boolean>;
  end(sessionId: string): Promise<void>;
}

interface Answer {
  live: boolean;
  /** A live answer is asked again from then; an ended session never comes back (kept until its end). */
  until: number;
}

/**
 * Whether a console session is still live, for the cookie's path (docs/decisions/0193). The record is the
 * employees service's, shared by every gateway replica; each replica remembers a live answer for `ttlMs`
 * (the key cache's window, API_KEY_CACHE_MS), so a sign-out on another replica takes effect there within
 * it, and at once on the replica that signed out. Lookups of one session at once share one call; the
 * answers are in a bounded LRU (an unknown id costs a lookup, then a slot among the ended ones).
 */
export class ConsoleSessionLiveness {
  private readonly answers: Lru<string, Answer>;
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(
    private readonly records: ConsoleSessionRecords,
    private readonly ttlMs = 5000,
    capacity = 50_000,
    private readonly now: () => number = Date.now,
  ) {
    this.answers = new Lru(capacity);
  }

  /** Records a new session before its cookie is handed out. */
  async record(sessionId: string, apiKeyId: string, expiresAt: number): Promise<void> {
    await this.records.record(sessionId, { apiKeyId, expiresAt: new Date(expiresAt).toISOString() });
    this.answers.set(sessionId, { live: true, until: this.now() + this.ttlMs });
  }

  /** Whether the session is live; throws (503) when the record cannot be asked. */
  async isLive(sessionId: string, expiresAt: number): Promise<boolean> {
    const known = this.answers.get(sessionId);
    if (known && (!known.live || known.until > this.now())) return known.live;
    const pending = this.inFlight.get(sessionId);
    if (pending) return pending;
    const lookup = this.records
      .isLive(sessionId)
      .then((live) => {
        // A sign-out on this replica while the lookup ran wins over its older answer.
        if (this.answers.peek(sessionId)?.live === false) return false;
        this.answers.set(sessionId, { live, until: live ? this.now() + this.ttlMs : expiresAt });
        return live;
      })
      .finally(() => this.inFlight.delete(sessionId));
    this.inFlight.set(sessionId, lookup);
    return lookup;
  }

  /** Ends the session everywhere: in the record, and in this replica at once. */
  async end(sessionId: string, expiresAt: number): Promise<void> {
    this.answers.set(sessionId, { live: false, until: expiresAt });
    await this.records.end(sessionId);
  }
}
