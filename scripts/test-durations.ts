// Refreshes the seconds the test sequencer starts the longest files by (packages/testkit/jest/durations.json,
// docs/decisions/0209) from a full run's `jest --json --outputFile=<file>`: every file of 5 s and more.
// Usage: tsx scripts/test-durations.ts <jest-json-file>
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const FROM_SECONDS = 5;

interface JestJson {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const input = process.argv[2];
if (!input) throw new Error('usage: tsx scripts/test-durations.ts <jest-json-file>');
const root = join(__dirname, '..');
const file = join(root, 'packages', 'testkit', 'jest', 'durations.json');
const run = JSON.parse(readFileSync(input, 'utf8')) as JestJson;
const seconds = run.testResults
  .map((r) => [relative(root, r.name), Math.round((r.endTime - r.startTime) / 1000)] as const)
  .filter(([, s]) => s >= FROM_SECONDS)
  .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
const durations = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
writeFileSync(file, `${JSON.stringify({ ...durations, seconds: Object.fromEntries(seconds) }, null, 2)}\n`);
console.log(
  `[test-durations] ${seconds.length} files of ${FROM_SECONDS} s and more written to ${relative(root, file)}`,
);
