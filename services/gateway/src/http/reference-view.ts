// The document the reference page renders: the contract as published, plus the planned operations
// (`x-planned-operations`: contexts not built yet, 501 today) as operations of a "Planned" tag, so the
// renderer lists them beside the built ones. The published openapi.json / openapi.yaml stay the contract
// itself (docs/decisions/0064).

export const PLANNED_TAG = 'Planned (501 today)';

const PLANNED_NOTE =
  'Planned: part of a context not built yet. Answers 501 `NOT_IMPLEMENTED` today; its request and ' +
  'response bodies are defined when the context is built.';

type Doc = Record<string, any>;

/** `{id}`-style segments of a path template, in order. */
const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

function plannedOperation(path: string): Doc {
  const params = pathParams(path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return {
    tags: [PLANNED_TAG],
    summary: 'Planned: not implemented yet (501)',
    description: PLANNED_NOTE,
    ...(params.length ? { parameters: params } : {}),
    responses: {
      '501': {
        description: 'Not implemented yet (`NOT_IMPLEMENTED`)',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      },
    },
  };
}

/** A copy of `contract` for the page; `contract` itself is not changed. */
export function referenceView(contract: Doc): Doc {
  const doc: Doc = structuredClone(contract);
  const planned = Object.entries<string[]>(doc['x-planned-operations'] ?? {});
  doc.paths ??= {};
  for (const [path, methods] of planned) {
    const item: Doc = (doc.paths[path] ??= {});
    for (const method of methods) item[method] ??= plannedOperation(path);
  }
  if (planned.length) {
    doc.tags = [
      ...(doc.tags ?? []),
      { name: PLANNED_TAG, description: 'Contexts not built yet: the paths exist and answer 501 today' },
    ];
  }
  const links =
    'Machine-readable contract: [openapi.json](openapi.json) · [openapi.yaml](openapi.yaml). Operations ' +
    `tagged *${PLANNED_TAG}* belong to contexts not built yet.`;
  doc.info = { ...doc.info, description: `${doc.info?.description ?? ''}\n\n${links}\n`.trimStart() };
  return doc;
}
