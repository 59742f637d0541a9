import { AppError, notFound, type PeriodicJob } from '@travel/platform';
import type { LiveConsoleSession } from '@travel/contracts';
import { consoleSessionRecord, isSessionId } from '../domain/console-session';
import type { ConsoleSessionStore } from '../infra/console-sessions';

/** How often expired sessions are deleted: so none stays in the store much past its 8 hours. */
export const CONSOLE_SESSION_PURGE_MS = 10 * 60_000;

const sessionIdOf = (raw: unknown): string => {
  if (!isSessionId(raw)) throw new AppError('VALIDATION_FAILED', undefined, { sessionId: ['must be a session id'] });
  return raw;
};

/** The gateway's console sessions: recorded at sign-in, asked for on the cookie's path, ended at sign-out (0193). */
export class ConsoleSessionsApp {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(sessionId: unknown, body: unknown): Promise<void> {
    const { record, errors } = consoleSessionRecord(sessionIdOf(sessionId), body, this.now());
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    await this.store.put(record);
  }

  /** The live session; 404 once ended, expired or never recorded. */
  async live(sessionId: unknown): Promise<LiveConsoleSession> {
    const found = await this.store.findLive(sessionIdOf(sessionId), this.now());
    if (!found) throw notFound('console session');
    return { sessionId: found.sessionId, expiresAt: found.expiresAt.toISOString() };
  }

  end(sessionId: unknown): Promise<void> {
    return this.store.remove(sessionIdOf(sessionId));
  }

  /** Deletes expired sessions, now and every CONSOLE_SESSION_PURGE_MS once started. */
  purgeJob(everyMs = CONSOLE_SESSION_PURGE_MS): PeriodicJob {
    return { name: 'console session purge', everyMs, run: () => this.store.purgeExpired(this.now()) };
  }
}
