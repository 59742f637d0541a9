// Summarizes a V8 .cpuprofile (node --cpu-prof): self time by function and by where the code lives.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: our code, a package, Node's internals, or V8 pseudo-frames. */
export function categoryOf(url: string, fn: string): string {
  if (!url) {
    if (fn === '(idle)') return 'idle';
    if (fn === '(garbage collector)') return 'GC';
    if (fn === '(program)') return 'V8/native (program)';
    return `native ${fn || '(anonymous)'}`;
  }
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  if (url.startsWith('node:')) {
    const mod = url.slice(5).replace(/^internal\//, '');
    return `node ${mod.split('/').slice(0, 2).join('/')}`;
  }
  const ours = /\/(services\/[^/]+|packages\/[^/]+)\//.exec(url);
  if (ours) return `ours ${ours[1]}`;
  return `other ${url.split('/').slice(-2).join('/')}`;
}

/**
 * Which client a sample is working for: the nearest caller frame from the store client (mongoose,
 * mongodb, bson), the broker client (amqplib), the HTTPS send or the destination check (DNS). Native
 * frames such as socket writes are counted for the client that called them.
 */
function layerOf(url: string): string | undefined {
  if (/\/(mongoose|mongodb|bson)\//.test(url)) return 'store client (mongoose, mongodb, bson)';
  if (url.includes('/amqplib/')) return 'broker client (amqplib)';
  if (/https-sender|node:(https|_http_|_tls_wrap)/.test(url)) return 'HTTPS send';
  if (/destination\.ts|node:dns/.test(url)) return 'DNS and destination check';
  return undefined;
}

export function summarizeCpuProfile(file: string, top = 25) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byCategory = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const cat = categoryOf(url, functionName);
    byCategory.set(cat, (byCategory.get(cat) ?? 0) + us);
    const key =
      `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/^file:\/\/.*\/work\/main\//, '')}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const busy = total - (byCategory.get('idle') ?? 0);
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byLayer = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const fn = byId.get(id)!.callFrame.functionName;
    if (fn === '(idle)') continue;
    let layer = fn === '(garbage collector)' ? 'GC' : undefined;
    for (let x: number | undefined = id; !layer && x !== undefined; x = parent.get(x))
      layer = layerOf(byId.get(x)!.callFrame.url);
    byLayer.set(layer ?? 'other', (byLayer.get(layer ?? 'other') ?? 0) + us);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), pctOfBusy: Math.round((us / busy) * 1000) / 10 }));
  return {
    wallMs: Math.round((profile.endTime - profile.startTime) / 1000),
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round((byCategory.get('idle') ?? 0) / 1000),
    layers: rank(byLayer),
    categories: rank(byCategory),
    functions: rank(byFunction).slice(0, 15),
  };
}
