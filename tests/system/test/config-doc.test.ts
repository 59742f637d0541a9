// docs/configuration.md's tables are generated from the processes' configuration schemas
// (scripts/config-doc.ts, decision 0084): the committed page is what the generator makes, every variable
// every schema reads is on it, and a page without a table for a section is refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@travel/testkit';
import { CONFIG_SCHEMAS, renderTables } from '../../../scripts/config-doc';

const page = readFileSync(join(repoRoot(), 'docs', 'configuration.md'), 'utf8');

/** Table rows without prettier's padding (npm run config:check compares the formatted page itself). */
const unpadded = (text: string) =>
  text
    .split('\n')
    .map((line) => (line.startsWith('|') ? line.replace(/ +\|/g, ' |').replace(/\| -+ /g, '| --- ') : line))
    .join('\n');

describe('docs/configuration.md', () => {
  it('is what the generator makes from the schemas (npm run config:generate)', () => {
    expect(unpadded(renderTables(page))).toBe(unpadded(page));
  });

  it.each(CONFIG_SCHEMAS.map((c) => [c.service, c] as const))('lists every variable %s reads', (service, c) => {
    for (const name of Object.keys(c.shape))
      expect(`${service}: ${page.includes(`| \`${name}\``)}`).toBe(`${service}: true`);
  });

  it('is refused without the table of a section', () => {
    const without = page.replace(/<!-- config-table: fleet -->[\s\S]*?<!-- \/config-table -->/, '');
    expect(() => renderTables(without)).toThrow('docs/configuration.md has no table for section(s): fleet');
  });
});
