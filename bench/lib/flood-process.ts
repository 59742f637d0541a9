// The flood of the unknown-key benchmark (bench/key-flood.ts), in a process of its own so its client work
// does not share an event loop with the valid caller that is timed. Sends `keys` requests, each with a new
// random key of the issued form (`tek_` + 32 random bytes, base64url: the worst case, past the gateway's
// form check), round-robin from `addresses` (loopback source addresses, `localAddress`), paced at `rate`
// a second with at most `inFlight` outstanding.
// IPC: child → { type: 'ready' }; parent → { type: 'run', ... } → child { type: 'flooded', ... };
// parent → { type: 'stop' } → child { type: 'stopped' }, then exits.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';

interface Run {
  type: 'run';
  url: string;
  keys: number;
  addresses: string[];
  rate: number;
  inFlight: number;
}

function send(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve) => {
    const key = `tek_${randomBytes(32).toString('base64url')}`;
    const req = request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function flood(r: Run) {
  const agents = r.addresses.map(
    (localAddress) =>
      new Agent({ keepAlive: true, localAddress, maxSockets: Math.ceil(r.inFlight / r.addresses.length) }),
  );
  const statuses: Record<string, number> = {};
  const started = performance.now();
  let sent = 0;
  let outstanding = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(r.keys, Math.floor(((performance.now() - started) / 1000) * r.rate));
      while (sent < due && outstanding < r.inFlight) {
        const agent = agents[sent % agents.length]!;
        sent++;
        outstanding++;
        void send(r.url, agent).then((status) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          outstanding--;
          if (sent === r.keys && outstanding === 0) done();
        });
      }
      if (sent < r.keys) setTimeout(tick, 5);
    };
    tick();
  });
  for (const a of agents) a.destroy();
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

process.on('message', (m: Run | { type: 'stop' }) => {
  if (m.type === 'stop') {
    process.send!({ type: 'stopped' });
    process.exit(0);
  }
  if (m.type === 'run') void flood(m).then((result) => process.send!({ type: 'flooded', ...result }));
});
process.send!({ type: 'ready' });
