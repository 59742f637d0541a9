// The changelog as a page beside the API reference (docs/decisions/0134): rendered once from
// contracts/changelog.yaml, plain HTML without scripts, one anchor per entry (the `Link: rel="deprecation"`
// targets). The JSON beside it is the file itself.
import type { Changelog, ChangelogEntry } from '@travel/contracts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The entry's text: HTML-escaped, `backticks` as code. */
const text = (s: string) => escape(s).replace(/`([^`]+)`/g, '<code>$1</code>');

/** A contract pointer as people read it: `PerDiem.mealsProvided`, `POST /api/v1/…`. */
export function pointerLabel(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts[0] === 'paths') return `${parts[2]!.toUpperCase()} ${parts[1]}`;
  if (parts[0] === 'components')
    return parts
      .slice(2)
      .filter((p) => p !== 'properties')
      .join('.');
  return pointer;
}

function entryHtml(e: ChangelogEntry): string {
  const deprecated = e.deprecates?.length
    ? `<p class="deprecates">Deprecates: ${e.deprecates.map((p) => `<code>${escape(pointerLabel(p))}</code>`).join(', ')}</p>`
    : '';
  return `<li id="${escape(e.id)}" class="${escape(e.kind)}">
<p><a href="#${escape(e.id)}"><time datetime="${escape(e.date)}">${escape(e.date)}</time></a> <span class="kind">${escape(e.kind)}</span></p>
<p>${text(e.change)}</p>${deprecated}
</li>`;
}

export function renderChangelogPage(changelog: Changelog, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} — changelog</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
ol{list-style:none;padding:0}li{border-top:1px solid #ddd;padding:.5rem 0}li:target{background:#fff8d6}
p{margin:.25rem 0}code{background:#f3f3f3;padding:0 .2em}time{font-weight:600}
.kind{font-size:.8rem;text-transform:uppercase;padding:.1rem .4rem;border-radius:.2rem;background:#e8f0fe}
.behavioural .kind{background:#fff0d6}.structural .kind{background:#fde2e2}.deprecates{font-size:.9rem}
</style>
</head>
<body>
<h1>${escape(title)} — changelog</h1>
<p>Dated changes of the API, newest first, each <strong>additive</strong> (nothing a client relied on
changes), <strong>behavioural</strong> (same shapes, other answers) or <strong>structural</strong> (a shape,
path or operation changes or goes). Deprecated fields may be removed in a later release; the removal date is
not stated. A response that carries a deprecated field says so with a <code>Deprecation</code> header and a
<code>Link</code> to its entry here. As JSON: <a href="changelog.json">changelog.json</a> ·
<a href="./">API reference</a>.</p>
<ol>
${changelog.entries.map(entryHtml).join('\n')}
</ol>
</body>
</html>
`;
}
