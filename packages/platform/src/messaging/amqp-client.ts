import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type Options } from 'amqplib';
import type { Logger } from '../logger';

export type SetupHook = (channel: Channel) => Promise<void>;

export class PublishError extends Error {
  constructor(
    message: string,
    readonly reason: 'unroutable' | 'nacked' | 'disconnected' | 'timeout',
  ) {
    super(message);
  }
}

/**
 * One AMQP connection per service with reconnection. Topology and consumers register setup hooks that
 * run again on every new connection, so a broker restart heals without a pod restart. Publishing goes
 * through a confirm channel with `mandatory`: a publish resolves only once the broker has routed and
 * confirmed it, so an unroutable message is never counted as sent.
 */
export class AmqpClient {
  private conn?: ChannelModel;
  private publisher?: ConfirmChannel;
  private readonly hooks: SetupHook[] = [];
  private readonly returned = new Set<string>();
  private stopping = false;
  private connecting?: Promise<void>;
  private readonly channels = new Set<Channel>();
  private readonly unconfirmed = new Map<ConfirmChannel, Set<(error: PublishError) => void>>();

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    private readonly name: string,
    private readonly confirmTimeoutMs = 30_000,
  ) {}

  get connected(): boolean {
    return !!this.conn && !!this.publisher;
  }

  /** Registers a hook (topology, a consumer) and runs it now if connected. */
  async onConnect(hook: SetupHook): Promise<void> {
    this.hooks.push(hook);
    if (this.conn) await this.runHook(hook);
  }

  async start(): Promise<void> {
    this.stopping = false;
    await this.connectWithRetry();
  }

  private connectWithRetry(): Promise<void> {
    this.connecting ??= (async () => {
      for (let attempt = 0; !this.stopping; attempt++) {
        try {
          await this.connect();
          return;
        } catch (err) {
          const delay = Math.min(5000, 250 * 2 ** attempt);
          this.logger.warn({ err: (err as Error).message, delay }, 'amqp connect failed; retrying');
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const conn = await amqp.connect(this.url, { clientProperties: { connection_name: this.name } });
    conn.on('error', (err) => this.logger.warn({ err: err.message }, 'amqp connection error'));
    conn.on('close', () => {
      this.conn = undefined;
      this.publisher = undefined;
      this.channels.clear();
      if (!this.stopping) {
        this.logger.warn('amqp connection closed; reconnecting');
        void this.connectWithRetry();
      }
    });
    this.conn = conn;
    await this.openPublisher(conn);
    for (const hook of this.hooks) await this.runHook(hook);
    this.logger.info('amqp connected');
  }

  /**
   * The confirm channel used for every publish. A channel error (a publish to a missing exchange, say)
   * closes only the channel, not the connection: open a new one so one bad publish cannot stop all
   * later ones until a restart.
   */
  private async openPublisher(conn: ChannelModel): Promise<void> {
    const publisher = await conn.createConfirmChannel();
    publisher.on('error', (err) => this.logger.warn({ err: err.message }, 'amqp publish channel error'));
    publisher.on('return', (msg) => {
      if (msg.properties.messageId) this.returned.add(String(msg.properties.messageId));
    });
    // One close listener fails every publish still waiting for its confirm on this channel.
    this.unconfirmed.set(publisher, new Set());
    publisher.on('close', () => {
      for (const fail of [...(this.unconfirmed.get(publisher) ?? [])])
        fail(new PublishError('channel closed before confirm', 'disconnected'));
      this.unconfirmed.delete(publisher);
      if (this.publisher === publisher) this.publisher = undefined;
      if (!this.stopping && this.conn === conn) {
        this.openPublisher(conn).catch((err) =>
          this.logger.warn({ err: (err as Error).message }, 'amqp publish channel reopen failed'),
        );
      }
    });
    this.publisher = publisher;
  }

  private async runHook(hook: SetupHook): Promise<void> {
    const channel = await this.channel();
    await hook(channel);
  }

  /** A new channel on the current connection (consumers get one each, so prefetch is per consumer). */
  async channel(): Promise<Channel> {
    if (!this.conn) throw new PublishError('not connected to the broker', 'disconnected');
    const ch = await this.conn.createChannel();
    ch.on('error', (err) => this.logger.warn({ err: err.message }, 'amqp channel error'));
    this.channels.add(ch);
    ch.on('close', () => this.channels.delete(ch));
    return ch;
  }

  /** Publishes and waits for the broker's confirm; rejects when unroutable, nacked or disconnected. */
  publish(
    exchange: string,
    routingKey: string,
    body: Buffer,
    options: Options.Publish & { messageId: string },
  ): Promise<void> {
    const ch = this.publisher;
    if (!ch) return Promise.reject(new PublishError('not connected to the broker', 'disconnected'));
    return new Promise((resolve, reject) => {
      const pending = this.unconfirmed.get(ch)!;
      const fail = (error: PublishError) => {
        clearTimeout(timer);
        pending.delete(fail);
        reject(error);
      };
      // A broker under a memory or disk alarm holds confirms indefinitely: give up, the caller retries.
      const timer: NodeJS.Timeout = setTimeout(
        () => fail(new PublishError(`no confirm within ${this.confirmTimeoutMs} ms`, 'timeout')),
        this.confirmTimeoutMs,
      );
      pending.add(fail);
      ch.publish(exchange, routingKey, body, { persistent: true, mandatory: true, ...options }, (err) => {
        clearTimeout(timer);
        pending.delete(fail);
        // basic.return always precedes the ack of the same message, so the set is complete here.
        const wasReturned = this.returned.delete(options.messageId);
        if (err) reject(new PublishError('broker nacked the message', 'nacked'));
        else if (wasReturned) reject(new PublishError(`no queue bound for ${exchange}/${routingKey}`, 'unroutable'));
        else resolve();
      });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const conn = this.conn;
    this.conn = undefined;
    this.publisher = undefined;
    if (conn) await conn.close().catch(() => undefined);
  }
}
