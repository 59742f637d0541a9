// Prints traces the local stack's collector received (`npm start -- --observe`) as trees of spans:
//   npm run trace                 the latest trace that went through the gateway
//   npm run trace -- <trace id>   that trace (the trace_id of a log line, or an error body's traceId)
//   npm run trace -- --last 5     the latest five
import { ancestry, readSpans, traceTree } from '../packages/testkit/src/traces';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { localSpanFile } from './observe/traces';

const args = process.argv.slice(2);
const file = process.env.SPAN_FILE ?? localSpanFile(repoRoot());
const spans = readSpans(file);
if (spans.length === 0) {
  console.error(`no spans in ${file}: start the stack with \`npm start -- --observe\` and make a request`);
  process.exit(1);
}
const last = args[0] === '--last' ? Number(args[1] ?? 1) : 1;
const asked = args[0] && args[0] !== '--last' ? [args[0]] : undefined;
// Traces whose root is a gateway server span (a client's request), newest first.
const roots = spans
  .filter((s) => s.service === 'gateway' && s.kind === 'SERVER' && !s.parentSpanId)
  .sort((a, b) => (a.startNs > b.startNs ? -1 : 1));
const ids = asked ?? [...new Set(roots.map((s) => s.traceId))].slice(0, last);
for (const id of ids) {
  const root = spans.find((s) => s.traceId === id);
  if (!root) {
    console.error(`trace ${id} not found in ${file}`);
    process.exitCode = 1;
    continue;
  }
  const top = ancestry(spans, root).at(-1)!;
  console.log(`trace ${id}  ${top.attributes['http.method'] ?? ''} ${top.attributes['http.target'] ?? top.name}`);
  console.log(traceTree(spans, id));
  // Retries run in traces of their own, linked to this one (docs/decisions/0165).
  const linked = spans.filter((s) => s.links.some((l) => l.traceId === id));
  for (const s of linked) console.log(`  linked: trace ${s.traceId} (${s.service} ${s.name})`);
}
