// jest's test sequencer for this repository (docs/decisions/0209). With two workers, each takes the next
// file when it is free; so:
// - the longest files start first, and the two workers end together instead of one waiting on a long
//   file started late. A fresh clone has no jest cache (jest would order by file size), so the seconds
//   come from durations.json, the last full run. Files not listed keep jest's order (failed first, cached
//   time, file size) after the listed ones.
// - the files listed `alone` start last, after everything else has started: the short files at the end
//   leave them the machine within a second or two. The API fuzz is bounded by schemathesis' time budget,
//   so a neighbour taking CPU would make it try fewer cases; alone, it tries as many as with one worker.
// - the files listed `beside` start just before the `alone` ones (0236): they mostly wait (a connection
//   left idle for a minute), so they take the worker the fuzz leaves idle, not the fuzz's CPU.
const { join, relative } = require('node:path');
const durations = require('./durations.json');

// @jest/test-sequencer is jest's own dependency, not ours (pnpm does not hoist it): found through jest.
const from = (name, path) => require.resolve(name, { paths: [path] });
const JestSequencer = require(from('@jest/test-sequencer', from('@jest/core', require.resolve('jest')))).default;

const ROOT = join(__dirname, '..', '..', '..');
const ALONE = new Set(durations.alone);
const BESIDE = new Set(durations.beside ?? []);

class LongestFirstSequencer extends JestSequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const file = (test) => relative(ROOT, test.path);
    const seconds = (test) => durations.seconds[file(test)];
    const alone = ordered.filter((test) => ALONE.has(file(test)));
    const beside = ordered.filter((test) => BESIDE.has(file(test)));
    const rest = ordered.filter((test) => !ALONE.has(file(test)) && !BESIDE.has(file(test)));
    const listed = rest.filter((test) => seconds(test) !== undefined).sort((a, b) => seconds(b) - seconds(a));
    return [...listed, ...rest.filter((test) => seconds(test) === undefined), ...beside, ...alone];
  }
}

module.exports = LongestFirstSequencer;
