import { IMPORT_RULE as RULE, lintRules } from './lint-probe';

// Repositories in a service's src/infra are the only way to its models (issue 8, docs/decisions/0082):
// app, http and the wiring import the repositories, never the model definitions or mongoose. The lint
// rule enforces it; these cases fail if the rule is removed or loosened.

describe('models stay inside src/infra', () => {
  it.each([
    [
      "import { registerModels } from '../infra/models';\nexport const r = registerModels;\n",
      'services/fleet/src/app/probe.ts',
    ],
    [
      "import type { EmployeesModels } from '../infra/models';\nexport type M = EmployeesModels;\n",
      'services/employees/src/http/probe.ts',
    ],
    [
      "import { registerModels } from './infra/models';\nexport const r = registerModels;\n",
      'services/webhook-dispatcher/src/service.ts',
    ],
    [
      "import { registerFxModels } from '../infra/fx-models';\nexport const r = registerFxModels;\n",
      'services/reference-fx/src/app/probe.ts',
    ],
    [
      "import { registerModels } from '@travel/employees/src/infra/models';\nexport const r = registerModels;\n",
      'services/fleet/src/app/probe.ts',
    ],
    [
      "import type { EntriesModels } from '../infra/models';\nexport type M = EntriesModels;\n",
      'services/entries/src/app/probe.ts',
    ],
    [
      "import { registerWorkflowModels } from './infra/workflow-models';\nexport const r = registerWorkflowModels;\n",
      'services/entries/src/service.ts',
    ],
    [
      "import type { PayoutsModels } from '../infra/models';\nexport type M = PayoutsModels;\n",
      'services/payouts/src/app/probe.ts',
    ],
    ["import mongoose from 'mongoose';\nexport const m = mongoose;\n", 'services/employees/src/app/probe.ts'],
    ["import type { Model } from 'mongoose';\nexport type M = Model<unknown>;\n", 'services/fleet/src/http/probe.ts'],
  ])('refuses %s in %s', (code, file) => {
    expect(lintRules(code, file)).toContain(RULE);
  });

  it.each([
    [
      "import { fleetRepositories } from './infra/repositories';\nexport const r = fleetRepositories;\n",
      'services/fleet/src/service.ts',
    ],
    [
      "import type { EmployeesRepositories } from '../infra/repositories';\nexport type R = EmployeesRepositories;\n",
      'services/employees/src/app/probe.ts',
    ],
    [
      "import type { EntriesRepositories } from '../infra/repositories';\nexport type R = EntriesRepositories;\n",
      'services/entries/src/app/probe.ts',
    ],
    [
      "import { registerModels } from './models';\nexport const r = registerModels;\n",
      'services/fleet/src/infra/repositories.ts',
    ],
    [
      "import { Schema } from 'mongoose';\nexport const s = Schema;\n",
      'services/webhook-dispatcher/src/infra/probe.ts',
    ],
  ])('allows %s in %s', (code, file) => {
    expect(lintRules(code, file)).toEqual([]);
  });
});
