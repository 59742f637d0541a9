import { circles, importGraph } from '../../../../scripts/import-cycles';

// Decision 0169: no import circles anywhere, checked by scripts/import-cycles.ts in `npm test` and
// `npm run lint`. These cases fail if the check stops seeing a circle, or if one comes back.

describe('the import-circle check', () => {
  it('finds a circle of two and of three files, type-only or not, and a self-import', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['c.ts']],
      ['f.ts', ['f.ts']],
      ['g.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual(expect.arrayContaining([['a.ts', 'b.ts'], ['c.ts', 'd.ts', 'e.ts'], ['f.ts']]));
    expect(circles(graph)).toHaveLength(3);
  });

  it('sees the edges of the tree: relative, type-only and workspace-package imports', () => {
    const graph = importGraph();
    const edgesOf = (file: string) =>
      [...graph.entries()].find(([path]) => path.endsWith(file))?.[1].map((t) => t.split('/').slice(-4).join('/'));
    // `import type { EntryAccess } from './entry-access'` and `from '@travel/platform'` (its entry file).
    expect(edgesOf('services/entries/src/app/per-diems.ts')).toEqual(
      expect.arrayContaining(['entries/src/app/entry-access.ts', 'packages/platform/src/index.ts']),
    );
  });

  it('the tree has no import circle', () => {
    expect(circles(importGraph())).toEqual([]);
  });
});
