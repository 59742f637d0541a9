import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openApiDocument } from '@travel/contracts';
import { RENDERER_ASSETS, renderPage } from './api-reference';
import { PLANNED_TAG, referenceView } from './reference-view';

const contract = openApiDocument() as any;

describe('referenceView', () => {
  const view = referenceView(contract);

  // Every context is built today, so the contract plans nothing; the view is checked on planned operations
  // added to it (one with a path parameter).
  const plannedContract = {
    ...contract,
    'x-planned-operations': {
      ...contract['x-planned-operations'],
      '/api/v1/example-things/{id}/parts/{partId}': ['get', 'post'],
    },
  };
  const plannedView = referenceView(plannedContract);

  it('adds every planned operation, tagged as planned, answering 501 with the Problem body', () => {
    const planned = Object.entries<string[]>(plannedContract['x-planned-operations']);
    expect(planned.length).toBeGreaterThan(0);
    for (const [path, methods] of planned) {
      for (const method of methods) {
        const op = plannedView.paths[path][method];
        expect(op.tags).toEqual([PLANNED_TAG]);
        expect(Object.keys(op.responses)).toEqual(['501']);
        expect(op.responses['501'].content['application/problem+json'].schema).toEqual({
          $ref: '#/components/schemas/Problem',
        });
      }
    }
    expect(plannedView.tags.map((t: { name: string }) => t.name)).toContain(PLANNED_TAG);
  });

  it('declares the path parameters of the planned paths', () => {
    for (const [path, methods] of Object.entries<string[]>(plannedContract['x-planned-operations'])) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => `path:${m[1]}`);
      for (const method of methods) {
        const op = plannedView.paths[path][method];
        expect((op.parameters ?? []).map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(names);
      }
    }
  });

  it('keeps the built operations as the contract has them and leaves the contract unchanged', () => {
    for (const [path, item] of Object.entries<any>(contract.paths)) {
      for (const [method, op] of Object.entries<any>(item)) expect(view.paths[path][method]).toEqual(op);
    }
    expect(contract).toEqual(openApiDocument());
  });

  it('links the machine-readable contract from the description', () => {
    expect(view.info.description.startsWith(contract.info.description)).toBe(true);
    expect(view.info.description).toContain('[openapi.json](openapi.json)');
    expect(view.info.description).toContain('[openapi.yaml](openapi.yaml)');
  });
});

describe('renderPage', () => {
  it('loads the renderer from the gateway only, never from another host', () => {
    const html = renderPage(contract);
    const sources = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(sources).toEqual(
      expect.arrayContaining(['assets/swagger-ui.css', 'assets/swagger-ui-bundle.js', 'init.js']),
    );
    for (const s of sources) expect(s).not.toMatch(/^(https?:)?\/\//);
  });

  it('embeds the document so that no text in it can close the script element', () => {
    const hostile = { ...contract, info: { ...contract.info, description: '</script><script>alert(1)</script>' } };
    const html = renderPage(hostile);
    const embedded = /<script id="contract" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(embedded).info.description).toContain('</script><script>alert(1)</script>');
    expect(html.match(/<script/g)).toHaveLength(3);
  });

  it('every renderer file it serves is in the installed package', () => {
    const dir = dirname(require.resolve('swagger-ui-dist/package.json'));
    for (const file of Object.keys(RENDERER_ASSETS)) expect(existsSync(join(dir, file))).toBe(true);
  });
});
