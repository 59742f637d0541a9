// The index of the decision records (issue 41 §3; docs/decisions/0213) cannot drift from the records:
// every record is listed exactly once with its heading's title, every line names a record that exists,
// and whatever a record says was superseded or amended is marked so in the index.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@travel/testkit';

const dir = join(repoRoot(), 'docs', 'decisions');
const RECORD = /^(\d{4})-.+\.md$/;
const records = readdirSync(dir).filter((f) => RECORD.test(f));
const numberOf = (file: string) => RECORD.exec(file)![1]!;
const text = (file: string) => readFileSync(join(dir, file), 'utf8');
const index = readFileSync(join(dir, 'README.md'), 'utf8');

/** `- [NNNN](file) title · *marks*`, one line per listed record. */
const lines = [...index.matchAll(/^- \[(\d{4})\]\(([^)]+)\) (.+)$/gm)].map(([, n, file, rest]) => {
  const [title, marks = ''] = rest!.split(' · ');
  return { n: n!, file: file!, title: title!.trim(), marks: marks.toLowerCase() };
});
const lineOf = (n: string) => lines.find((l) => l.n === n);

/** The title a record's heading gives, without its number: `# 0201 — Title` (or `# 0005: Title`). */
const titleOf = (file: string) =>
  text(file)
    .split('\n')[0]!
    .replace(/^#\s*\d{4}\s*[—:-]\s*/, '')
    .trim();

const numbers = (s: string) => [...s.matchAll(/\b(\d{4})\b/g)].map((m) => m[1]!);

/** [changed record, record that changed it] pairs the records state themselves. */
function changes(): [string, string][] {
  const pairs: [string, string][] = [];
  for (const file of records) {
    const own = numberOf(file);
    const body = text(file);
    // "Superseded by 0035", "amended by 0194 and 0197", "superseded by decision 0123": this one was changed.
    for (const m of body.matchAll(/\b(?:superseded|amended) by (?:decision )?(\d{4}(?:(?:, | and )\d{4})*)/gi))
      for (const by of numbers(m[1]!)) pairs.push([own, by]);
    // "Supersedes the read-only part of 0016", "(amends 0076 and 0077)": this one changed others, named up
    // to the end of the sentence.
    for (const m of body.matchAll(/\b(?:supersedes|amends)\b([\s\S]*?)(?:\.\s|\n\n|$)/gi))
      for (const changed of numbers(m[1]!)) if (changed !== own) pairs.push([changed, own]);
  }
  return pairs;
}

describe('docs/decisions/README.md, the index by topic', () => {
  it('lists every record exactly once', () => {
    const listed = lines.map((l) => l.file);
    expect(records.filter((f) => !listed.includes(f))).toEqual([]);
    expect(listed.filter((f, i) => listed.indexOf(f) !== i)).toEqual([]);
  });

  it('names no record that does not exist, each under its own number', () => {
    expect(lines.filter((l) => !records.includes(l.file) || numberOf(l.file) !== l.n)).toEqual([]);
  });

  it('gives each record the title of its heading', () => {
    expect(lines.filter((l) => records.includes(l.file) && l.title !== titleOf(l.file))).toEqual([]);
  });

  it('marks every record a later one superseded or amended, naming it', () => {
    const found = changes();
    expect(found.length).toBeGreaterThan(20); // the records do say so: the patterns still find them
    const unmarked = found.filter(([changed, by]) => {
      const line = lineOf(changed);
      return line && !(/superseded|amended/.test(line.marks) && line.marks.includes(by));
    });
    expect(unmarked).toEqual([]);
  });
});
