import { lintRules } from './lint-probe';

// One home for each kind of code (issue 26): a service calls another only through the client the provider
// publishes in contracts/src/clients, and shares reference data through a package, so no service imports
// another service's code and no package or contract imports a service (eslint.config.mjs,
// scripts/lint/service-boundaries.mjs). These cases fail if the rule is removed or loosened.
const RULE = 'boundaries/no-other-service-source';

describe("no service imports another service's code", () => {
  it.each([
    [
      "import { FxClient } from '@travel/reference-fx/src/fx-client';\nexport const c = FxClient;\n",
      'services/entries/src/service.ts',
    ],
    [
      "import { CROATIAN_MUNICIPALITIES } from '@travel/reference-fx/src/domain/municipalities';\nexport const m = CROATIAN_MUNICIPALITIES;\n",
      'services/entries/src/infra/places.ts',
    ],
    [
      "import type { EmployeeContact } from '@travel/employees/src/http/internal';\nexport type C = EmployeeContact;\n",
      'services/fleet/src/app/probe.ts',
    ],
    ["export * from '@travel/entries';\n", 'services/payouts/src/infra/probe.ts'],
    [
      "import { start } from '../../../fleet/src/service';\nexport const s = start;\n",
      'services/entries/src/infra/probe.ts',
    ],
    ["export { start } from '@travel/gateway/src/service';\n", 'packages/platform/src/probe.ts'],
    [
      "import { SERVICE } from '@travel/employees/src/config';\nexport const s = SERVICE;\n",
      'contracts/src/clients/probe.ts',
    ],
  ])('refuses %s in %s', (code, file) => {
    expect(lintRules(code, file)).toContain(RULE);
  });

  it.each([
    [
      "import { EmployeesClient } from '@travel/contracts';\nexport const c = EmployeesClient;\n",
      'services/fleet/src/service.ts',
    ],
    [
      "import { OFFICIAL_PLACES } from '@travel/places';\nexport const p = OFFICIAL_PLACES;\n",
      'services/entries/src/infra/probe.ts',
    ],
    [
      "import { SERVICE } from '@travel/entries/src/config';\nexport const s = SERVICE;\n",
      'services/entries/src/http/probe.ts',
    ],
    ["import { readConfig } from '../service';\nexport const r = readConfig;\n", 'services/fleet/src/infra/probe.ts'],
    [
      "import { start } from '@travel/fleet/src/service';\nexport const s = start;\n",
      'tests/system/test/probe.test.ts',
    ],
  ])('allows %s in %s', (code, file) => {
    expect(lintRules(code, file)).not.toContain(RULE);
  });
});
