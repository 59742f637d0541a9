import { Router } from 'express';
import { stringify } from 'yaml';
import { openApiDocument } from '@travel/contracts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A readable page of the contract, rendered from the same document (no CDN, no client script). */
function renderPage(doc: any): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const codes = Object.keys(op.responses ?? {}).join(', ');
      rows.push(
        `<tr><td class="m ${method}">${method.toUpperCase()}</td><td><code>${escape(path)}</code></td>` +
          `<td>${escape(op.summary ?? op.operationId ?? '')}</td><td>${escape((op.tags ?? []).join(', '))}</td><td>${escape(codes)}</td></tr>`,
      );
    }
  }
  // Contexts not built yet (x-planned-operations): listed so partners see what is coming; 501 today.
  for (const [path, methods] of Object.entries<string[]>(doc['x-planned-operations'] ?? {})) {
    for (const method of methods) {
      rows.push(
        `<tr><td class="m ${escape(method)}">${escape(method.toUpperCase())}</td><td><code>${escape(path)}</code></td>` +
          `<td>Planned: not implemented yet (501)</td><td></td><td>501</td></tr>`,
      );
    }
  }
  const schemas = Object.entries<any>(doc.components?.schemas ?? {})
    .map(([name, s]) => {
      const enumText = s.enum
        ? `<p>Allowed: ${s.enum.map((v: unknown) => `<code>${escape(String(v))}</code>`).join(' ')}</p>`
        : '';
      const props = Object.entries<any>(s.properties ?? {})
        .map(
          ([p, ps]) =>
            `<li><code>${escape(p)}</code>${(s.required ?? []).includes(p) ? ' (required)' : ''}${ps.description ? ` — ${escape(ps.description)}` : ''}</li>`,
        )
        .join('');
      return `<section id="${escape(name)}"><h3>${escape(name)}</h3>${s.description ? `<p>${escape(s.description)}</p>` : ''}${enumText}${props ? `<ul>${props}</ul>` : ''}</section>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info.title)} — API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
.m{font-weight:700;font-family:monospace}.get{color:#0a6}.post{color:#06c}.put{color:#a60}.delete{color:#c00}code{background:#f4f4f4;padding:0 .2rem}</style></head>
<body><h1>${escape(doc.info.title)} <small>v${escape(doc.info.version)}</small></h1>
<pre>${escape(doc.info.description ?? '')}</pre>
<p>Machine-readable: <a href="openapi.json">openapi.json</a> · <a href="openapi.yaml">openapi.yaml</a></p>
<h2>Operations</h2><table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Tag</th><th>Responses</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>
<h2>Webhooks</h2><p>Signed POSTs: ${Object.keys(doc.webhooks ?? {})
    .map((w) => `<code>${escape(w)}</code>`)
    .join(
      ', ',
    )}. Headers <code>Svc-Event</code>, <code>Svc-Event-Id</code>, <code>Svc-Signature</code>, <code>Svc-Delivery-Id</code>.</p>
<h2>Schemas</h2>${schemas}</body></html>`;
}

export function apiReferenceRoutes(): Router {
  const doc = openApiDocument();
  const json = JSON.stringify(doc, null, 2);
  const yaml = stringify(doc);
  const page = renderPage(doc);
  const r = Router();
  r.get('/api-reference/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  r.get('/api-reference/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(yaml);
  });
  r.get(['/api-reference', '/api-reference/'], (req, res) => {
    if (!req.path.endsWith('/')) return res.redirect(301, '/api-reference/');
    res.type('html').send(page);
  });
  return r;
}
