// No import circles in services/ and packages/ (docs/decisions/0169): every relative import and every
// import of a workspace package (`@travel/<name>`, its entry or a path inside it), type-only ones too, is
// an edge; a strongly connected group of more than one file (or a file importing itself) is a circle.
// A plain scan of the import lines, not a type-checker: the whole tree is read in well under a second.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SCANNED = ['services', 'packages', 'contracts/src', 'tests', 'bench', 'scripts', 'tools'];
const SKIPPED = new Set(['node_modules', 'dist', 'generated', 'coverage']);

/** The workspace's packages by name: their folder and entry file. */
function workspacePackages(): Map<string, { dir: string; main: string }> {
  const out = new Map<string, { dir: string; main: string }>();
  for (const parent of ['services', 'packages', '.'])
    for (const name of parent === '.' ? ['contracts'] : readdirSync(join(ROOT, parent))) {
      const file = join(ROOT, parent, name, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; main?: string };
      const dir = join(ROOT, parent, name);
      out.set(pkg.name, { dir, main: join(dir, pkg.main ?? 'src/index.ts') });
    }
  return out;
}

function sources(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, into);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) into.push(path);
  }
  return into;
}

function asFile(path: string): string | undefined {
  for (const candidate of [path, `${path}.ts`, `${path}.tsx`, join(path, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

// `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`, `require('x')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

export function importGraph(): Map<string, string[]> {
  const packages = workspacePackages();
  const graph = new Map<string, string[]>();
  for (const root of SCANNED)
    for (const file of sources(join(ROOT, root))) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/.*$/gm, '$1');
      const targets = new Set<string>();
      for (const [, spec] of text.matchAll(SPECIFIER)) {
        let target: string | undefined;
        if (spec.startsWith('.')) target = asFile(resolve(dirname(file), spec));
        else {
          const m = /^(@travel\/[^/]+)(?:\/(.+))?$/.exec(spec);
          const pkg = m && packages.get(m[1]);
          if (pkg) target = m[2] ? asFile(join(pkg.dir, m[2])) : pkg.main;
        }
        if (target) targets.add(target);
      }
      graph.set(file, [...targets]);
    }
  return graph;
}

/** Tarjan's strongly connected components with more than one file, or with a self-import. */
export function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) !== indexOf.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

if (require.main === module) {
  const started = Date.now();
  const graph = importGraph();
  const found = circles(graph);
  for (const group of found) console.error(`import circle:\n  ${group.map((f) => relative(ROOT, f)).join('\n  ')}`);
  console.log(`[import-cycles] ${graph.size} files, ${found.length} circles, ${Date.now() - started} ms`);
  process.exit(found.length ? 1 : 0);
}
