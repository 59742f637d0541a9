import { IMPORT_RULE as RULE, lintRules } from './lint-probe';

// Use cases return records and src/http makes the wire bodies (issue 26, docs/decisions/0175): a module of
// a service's src/app never imports its src/http. These cases fail if the lint rule is removed or loosened;
// infra-imports.test.ts proves the same block still keeps the models inside src/infra.

describe('src/app does not import src/http', () => {
  it.each([
    [
      "import { toEntryResponse } from '../http/mappers';\nexport const m = toEntryResponse;\n",
      'services/entries/src/app/probe.ts',
    ],
    ["import type { Router } from '../http/routes';\nexport type R = Router;\n", 'services/fleet/src/app/probe.ts'],
    ["import { mapper } from '../../http';\nexport const m = mapper;\n", 'services/payouts/src/app/nested/probe.ts'],
  ])('refuses %s in %s', (code, file) => {
    expect(lintRules(code, file)).toContain(RULE);
  });

  it.each([
    [
      "import type { JournalApp } from '../app/journal';\nexport type J = JournalApp;\n",
      'services/entries/src/http/probe.ts',
    ],
    [
      "import { toVehicleResponse } from './http/mappers';\nexport const m = toVehicleResponse;\n",
      'services/fleet/src/service.ts',
    ],
    [
      "import { entryFigures } from '../domain/entry-figures';\nexport const f = entryFigures;\n",
      'services/entries/src/app/probe.ts',
    ],
  ])('allows %s in %s', (code, file) => {
    expect(lintRules(code, file)).not.toContain(RULE);
  });
});
