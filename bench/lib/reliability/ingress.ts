// What spreads the harness's API calls over the gateway replicas, as an ingress or a cloud load balancer
// does in front of a Deployment: round robin over the replicas whose `/readyz` answered 200 at the last
// probe (every `probeMs`, as a readiness probe feeds a Service's endpoints), one keep-alive agent per
// replica. A replica that refused a connection never saw the request; the caller may send it to the next
// ready one (as an ingress does for a connect error) after `refused(i)` takes the refusing one out until
// its next good probe.
import { Agent } from 'node:http';
import { CLIENT_IDLE_SOCKET_MS } from '../../../packages/platform/src/http/keep-alive';

export interface GatewayReplica {
  /** The API's base URL. */
  url: string;
  /** Its ops port (`/readyz`). */
  opsUrl: string;
}

/** Where one request goes. */
export interface Pick {
  base: URL;
  agent: Agent;
  /** The gateway replica's index. */
  replica: number;
}

export class Ingress {
  private readonly ready: boolean[];
  private readonly agents: Agent[];
  private readonly bases: URL[];
  private turn = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly replicas: readonly GatewayReplica[],
    private readonly options: { probeMs: number; connections: number },
  ) {
    this.ready = replicas.map(() => true);
    this.bases = replicas.map((r) => new URL(r.url));
    // An idle socket is dropped before the gateway would close it, as the product's own clients do (0136).
    this.agents = replicas.map(
      () => new Agent({ keepAlive: true, maxSockets: options.connections, timeout: CLIENT_IDLE_SOCKET_MS }),
    );
  }

  start(): void {
    const probe = () =>
      Promise.all(
        this.replicas.map(async (r, i) => {
          try {
            const res = await fetch(`${r.opsUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
            await res.arrayBuffer();
            this.ready[i] = res.status === 200;
          } catch {
            this.ready[i] = false;
          }
        }),
      );
    const loop = () => void probe().finally(() => this.timer && (this.timer = setTimeout(loop, this.options.probeMs)));
    this.timer = setTimeout(loop, 0);
  }

  /** The next ready replica in turn, other than `not`; with none ready, the next one anyway (it answers). */
  pick(not?: number): Pick | undefined {
    const candidates = this.replicas.map((_, i) => i).filter((i) => i !== not);
    const ready = candidates.filter((i) => this.ready[i]);
    const from = ready.length ? ready : not === undefined ? candidates : [];
    if (from.length === 0) return undefined;
    const replica = from[this.turn++ % from.length]!;
    return { base: this.bases[replica]!, agent: this.agents[replica]!, replica };
  }

  /** A replica refused a connection: no more requests until a probe finds it ready again. */
  refused(replica: number): void {
    this.ready[replica] = false;
  }

  /** The replicas ready at the last probe. */
  readyReplicas(): number[] {
    return this.replicas.map((_, i) => i).filter((i) => this.ready[i]);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const agent of this.agents) agent.destroy();
  }
}
