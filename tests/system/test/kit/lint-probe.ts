import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@travel/testkit';

/** The import rule the architecture checks rest on (eslint.config.mjs). */
export const IMPORT_RULE = '@typescript-eslint/no-restricted-imports';

/**
 * The rule ids the repository's own ESLint configuration reports for `code` as if it were `file` (the
 * file need not exist). A child process: the flat config is an ES module, which jest's VM cannot load.
 */
export function lintRules(code: string, file: string): string[] {
  const root = repoRoot();
  const run = spawnSync(
    join(root, 'node_modules', '.bin', 'eslint'),
    ['--format', 'json', '--stdin', '--stdin-filename', file],
    {
      cwd: root,
      input: code,
      encoding: 'utf8',
    },
  );
  const [result] = JSON.parse(run.stdout) as Array<{ messages: Array<{ ruleId: string | null }> }>;
  return result!.messages.map((m) => m.ruleId ?? 'parse');
}
