// One reading at a time per replica (docs/decisions/0200): the loop takes the next due reading, and when
// there is none it waits for a nudge (this replica queued one) or the idle poll (another replica did, or
// a back-off ended). The engine works off the event loop, so the replica's HTTP and consumers stay live.
import type { Logger } from '@travel/platform';
import type { ReadingsApp } from './readings';

export class ReadingWorker {
  private running = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly readings: Pick<ReadingsApp, 'readNext'>,
    private readonly idlePollMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Work was queued: an idle loop looks now instead of at its next poll. */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let step: string;
      try {
        step = await this.readings.readNext();
      } catch (err) {
        // The store away: look again after the poll interval.
        this.logger.warn({ err: (err as Error).message }, 'reading loop: store unavailable');
        step = 'idle';
      }
      if (step === 'idle' && this.running)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.idlePollMs);
          timer.unref();
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      this.wake = undefined;
    }
  }
}
