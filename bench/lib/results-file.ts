import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a benchmark's results compact, then laid out by Prettier like the rest of the tree (small objects
 * stay on one line); indented by JSON.stringify when Prettier is not there.
 */
export function writeResultsFile(root: string, file: string, doc: unknown): void {
  writeFileSync(file, JSON.stringify(doc) + '\n');
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'prettier'), ['--write', '--log-level', 'warn', file], {
      cwd: root,
    });
  } catch {
    writeFileSync(file, JSON.stringify(doc, null, 1) + '\n');
  }
}

/** The commit a run measured, as results files name it: `abc1234`, with "(with uncommitted changes)" if so. */
export function revisionOf(root: string): string {
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  };
  return git(['rev-parse', '--short', 'HEAD']) + (git(['status', '--porcelain']) ? ' (with uncommitted changes)' : '');
}
