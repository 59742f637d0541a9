// docs/configuration.md's variable tables are generated from the processes' configuration schemas (the
// zod schemas every process parses its environment with). Each table sits between markers:
//   <!-- config-table: <section> --> … <!-- /config-table -->
// and lists the section's variables: type, default, which processes read it, what it does.
//   npm run config:generate     rewrites the tables
//   npm run config:check        fails when the page is stale (part of `npm test`)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envDocs, type ConfigSchema } from '../packages/platform/src';
import { configSchema as employees } from '../services/employees/src/config';
import { configSchema as entries } from '../services/entries/src/config';
import { configSchema as fleet } from '../services/fleet/src/config';
import { configSchema as gateway } from '../services/gateway/src/config';
import { configSchema as payouts } from '../services/payouts/src/config';
import { configSchema as receipts } from '../services/receipts/src/config';
import { configSchema as referenceFx } from '../services/reference-fx/src/config';
import { configSchema as dispatcher } from '../services/webhook-dispatcher/src/config';

/** Every process with a configuration schema, in the page's order. */
export const CONFIG_SCHEMAS: ConfigSchema<unknown>[] = [
  gateway,
  employees,
  entries,
  fleet,
  payouts,
  receipts,
  referenceFx,
  dispatcher,
];

const PAGE = join(__dirname, '..', 'docs', 'configuration.md');
const TABLE = /(<!-- config-table: ([a-z-]+) -->\n)[\s\S]*?(<!-- \/config-table -->)/g;

interface Row {
  name: string;
  type: string;
  description: string;
  /** Per process: its default. */
  defaults: Map<string, string>;
}

/** The variables of every section: a variable read by several processes is one row. */
export function sections(schemas = CONFIG_SCHEMAS): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const { service, shape } of schemas) {
    for (const [name, schema] of Object.entries(shape)) {
      const doc = envDocs.get(schema);
      if (!doc?.section) throw new Error(`${service}: ${name} has no documentation section (envSection)`);
      const rows = out.get(doc.section) ?? [];
      out.set(doc.section, rows);
      let row = rows.find((r) => r.name === name);
      if (!row) rows.push((row = { name, type: doc.type, description: doc.description, defaults: new Map() }));
      else if (row.type !== doc.type || row.description !== doc.description)
        throw new Error(`${name} is documented differently by ${service} in section ${doc.section}`);
      row.defaults.set(service, doc.default ?? '**required**');
    }
  }
  return out;
}

function readers(row: Row, all: string[]): string {
  const names = [...row.defaults.keys()];
  if (names.length === all.length) return 'every process';
  const services = all.filter((s) => s !== 'gateway');
  if (!names.includes('gateway') && names.length === services.length) return 'every service (not the gateway)';
  return names.join(', ');
}

function defaults(row: Row): string {
  const values = new Set(row.defaults.values());
  if (values.size === 1) return [...values][0]!;
  return [...row.defaults].map(([service, value]) => `${service} ${value}`).join(', ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function table(rows: Row[], all: string[]): string {
  const lines = [
    '| variable | type | default | read by | meaning |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| \`${r.name}\` | ${cell(r.type)} | ${cell(defaults(r))} | ${readers(r, all)} | ${cell(r.description)} |`,
    ),
  ];
  return lines.join('\n');
}

/** The page with every marked table regenerated (not yet formatted). */
export function renderTables(page: string): string {
  const bySection = sections();
  const all = CONFIG_SCHEMAS.map((s) => s.service);
  const used = new Set<string>();
  const replaced = page.replace(TABLE, (_m, open: string, section: string, close: string) => {
    const rows = bySection.get(section);
    if (!rows) throw new Error(`docs/configuration.md marks a table for an unknown section "${section}"`);
    used.add(section);
    return `${open}\n${table(rows, all)}\n\n${close}`;
  });
  const missing = [...bySection.keys()].filter((s) => !used.has(s));
  if (missing.length) throw new Error(`docs/configuration.md has no table for section(s): ${missing.join(', ')}`);
  return replaced;
}

/** The page with every marked table regenerated, formatted as prettier formats the repository. */
export async function render(page: string): Promise<string> {
  const { format, resolveConfig } = await import('prettier');
  return format(renderTables(page), { ...(await resolveConfig(PAGE)), filepath: PAGE });
}

async function main() {
  const check = process.argv.includes('--check');
  const current = readFileSync(PAGE, 'utf8');
  const next = await render(current);
  if (check) {
    if (next !== current) {
      console.error('docs/configuration.md is stale: run npm run config:generate');
      process.exit(1);
    }
    return;
  }
  writeFileSync(PAGE, next);
}

if (require.main === module)
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
