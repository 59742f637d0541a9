import type { Server } from 'node:http';
import type { ShutdownTimes } from '../config/shared-settings';
import { closeServer, startDraining } from './drain';

/**
 * The API port's part of a shutdown, the same in the gateway and every service (decision 0216): readiness
 * fails from the first moment, answers close their connections, the port stays open for the readiness
 * pause, then requests in flight get the drain time-out to finish.
 */
export class GracefulStop {
  private stopping = false;

  constructor(private readonly times: ShutdownTimes) {}

  /** A readiness check (`/readyz`): fails once the shutdown has begun, until the process exits. */
  readonly readiness = async (): Promise<void> => {
    if (this.stopping) throw new Error('shutting down');
  };

  /** Begins the shutdown and resolves when the API port is closed and its last answer sent. */
  async closeApi(server: Server): Promise<void> {
    this.stopping = true;
    startDraining(server);
    if (this.times.readinessPauseMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.times.readinessPauseMs));
    await closeServer(server, this.times.drainTimeoutMs);
  }
}
