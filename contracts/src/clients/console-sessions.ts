// The employees service's console-session routes (services/employees/src/http/console-sessions.ts) and the
// client the gateway records, checks and ends the console's sessions with (docs/decisions/0193). Kept apart
// from EmployeesClient: another concern of the same provider, asked only by the gateway.
import type { InternalTransport } from './transport';

/** `PUT /internal/console-sessions/{sessionId}`: a console sign-in, live until `expiresAt` or its sign-out. */
export interface ConsoleSessionRecord {
  /** The key the session stands for (its id, never the key). */
  apiKeyId: string;
  /** ISO instant; at most 8 hours after it is recorded. */
  expiresAt: string;
}

/** `GET /internal/console-sessions/{sessionId}`: 200 while live; 404 once ended, expired or never recorded. */
export interface LiveConsoleSession {
  sessionId: string;
  expiresAt: string;
}

const sessionPath = (sessionId: string) => `/console-sessions/${encodeURIComponent(sessionId)}`;

/** The store of live console sessions. Anything but the documented answers is 503 (the gateway refuses). */
export class ConsoleSessionsClient {
  constructor(private readonly transport: InternalTransport) {}

  /** Records a new session (idempotent: the same id again changes nothing but its end). */
  async record(sessionId: string, record: ConsoleSessionRecord): Promise<void> {
    const res = await this.transport.send('PUT', sessionPath(sessionId), record);
    if (!res.ok) throw this.transport.failed(res);
  }

  /** Whether the session is live (recorded, not ended, not expired). */
  async isLive(sessionId: string): Promise<boolean> {
    return (await this.transport.getOrNull<LiveConsoleSession>(sessionPath(sessionId))) !== null;
  }

  /** Ends the session (idempotent: ending an ended or unknown one is the same 204). */
  async end(sessionId: string): Promise<void> {
    const res = await this.transport.send('DELETE', sessionPath(sessionId));
    if (!res.ok) throw this.transport.failed(res);
  }
}
