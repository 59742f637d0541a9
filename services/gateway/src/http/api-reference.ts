import { dirname, join } from 'node:path';
import type { Router } from 'express';
import { apiRouter } from '@travel/platform';
import { stringify } from 'yaml';
import { changelogDocument, openApiDocument } from '@travel/contracts';
import { renderChangelogPage } from './changelog-page';
import { referenceView } from './reference-view';

/**
 * The renderer's files, served from the gateway's own node_modules (no CDN; the page works offline).
 * Only the files the page loads; Swagger UI, Apache-2.0 (docs/decisions/0064).
 */
export const RENDERER_ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Resolved at run time: beside the sources in the workspace, beside dist/ in a built service. */
const rendererDir = () => dirname(require.resolve('swagger-ui-dist/package.json'));

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside <script type="application/json">: no `<` may end the element early. */
const embeddedJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Starts the renderer on the embedded document; no request leaves the gateway (no validator badge). */
export const INIT_SCRIPT = `(function () {
  var spec = JSON.parse(document.getElementById('contract').textContent);
  window.ui = SwaggerUIBundle({
    spec: spec,
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    presets: [SwaggerUIBundle.presets.apis],
    deepLinking: true,
    filter: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 1,
    defaultModelExpandDepth: 2,
    displayRequestDuration: true,
    showCommonExtensions: true
  });
})();
`;

export function renderPage(doc: any): string {
  const title = `${escape(doc.info?.title ?? 'API')} — API reference`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" type="image/png" sizes="32x32" href="assets/favicon-32x32.png">
<link rel="stylesheet" href="assets/swagger-ui.css">
<style>body{margin:0}.swagger-ui .information-container{padding-top:1rem}</style>
</head>
<body>
<noscript><p>This reference needs JavaScript. The contract itself: <a href="openapi.json">openapi.json</a> ·
<a href="openapi.yaml">openapi.yaml</a>.</p></noscript>
<div id="swagger-ui"></div>
<script id="contract" type="application/json">${embeddedJson(referenceView(doc))}</script>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="init.js"></script>
</body>
</html>
`;
}

export function apiReferenceRoutes(): Router {
  const doc = openApiDocument();
  const json = JSON.stringify(doc, null, 2);
  const yaml = stringify(doc);
  const page = renderPage(doc);
  const changelog = changelogDocument();
  const changelogJson = JSON.stringify(changelog, null, 2);
  const changelogPage = renderChangelogPage(changelog, String((doc.info as { title?: string })?.title ?? 'API'));
  const assets = rendererDir();
  const r = apiRouter();
  // The changelog (docs/decisions/0134): the file as JSON, and a page beside the reference.
  r.get('/api-reference/changelog.json', (_req, res) => {
    res.type('application/json').send(changelogJson);
  });
  r.get('/api-reference/changelog', (_req, res) => {
    res.type('html').send(changelogPage);
  });
  r.get('/api-reference/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  r.get('/api-reference/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(yaml);
  });
  r.get('/api-reference/init.js', (_req, res) => {
    res.type('application/javascript; charset=utf-8').send(INIT_SCRIPT);
  });
  r.get('/api-reference/assets/:file', (req, res, next) => {
    const type = RENDERER_ASSETS[req.params.file];
    if (!type) return next();
    res.sendFile(
      join(assets, req.params.file),
      { headers: { 'content-type': type }, maxAge: '1h', dotfiles: 'allow' },
      (err) => {
        if (err) next(err);
      },
    );
  });
  r.get(['/api-reference', '/api-reference/'], (req, res) => {
    if (!req.path.endsWith('/')) return res.redirect(301, '/api-reference/');
    res.type('html').send(page);
  });
  return r;
}
