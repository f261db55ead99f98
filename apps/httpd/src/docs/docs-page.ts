/**
 * The API's documentation page (`GET /api/v1/docs`): Swagger UI from the `swagger-ui-dist`
 * package, served from this server only, started by a script file of our own so that the page's
 * Content-Security-Policy allows no inline script and no `eval`.
 */

/** The renderer's files the page uses, by the name they are served under (a fixed list). */
export const RENDERER_FILES = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

/** Name of the page's own start-up script. */
export const INIT_SCRIPT_NAME = 'init.js';

/**
 * Starts Swagger UI on the server's own document (`openapi.json` next to the page): no top bar
 * (it would let a visitor load another document), no call to the online validator, and "try
 * it out" against the document's server `/`, the page's own origin.
 */
export const INIT_SCRIPT = `'use strict';
// forge-httpd: starts Swagger UI (a file of its own: the page's CSP allows no inline script).
window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: true,
  displayRequestDuration: true,
});
`;

/**
 * The page's policy. Scripts, styles and the icon come from this origin only; `data:` images
 * are the icons Swagger UI's stylesheet embeds; `connect-src 'self'` is the document and every
 * "try it out" request. No inline script, no inline style, no `eval`; nothing may frame the
 * page, and no form or base URL may point elsewhere.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page. Paths are relative (`docs/…` from `/api/v1/docs`), so it also works under a proxy's
 * path prefix; each asset URL carries its version (`?v=`), so the year-long cache of the assets
 * never serves an old renderer after an upgrade.
 * @param version - the asset file name → its version tag
 */
export function docsPageHtml(version: (name: string) => string): string {
  const href = (name: string): string => `docs/${name}?v=${version(name)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>forge-httpd API</title>
<link rel="stylesheet" href="${href('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${href('favicon-32x32.png')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${href('swagger-ui-bundle.js')}"></script>
<script src="${href(INIT_SCRIPT_NAME)}"></script>
</body>
</html>
`;
}
