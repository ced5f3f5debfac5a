// The interactive docs page at /api/docs (catalog recipes/docs/interactive-docs): Swagger UI loaded from
// /api/docs/<file> and pointed at /api/openapi.json. Every URL is relative to the page, so the page also works
// behind a proxy that serves the API under a prefix; the document's server is relative too, so "Try it out"
// calls the server that served the page. No script or style is inline (the page's Content-Security-Policy
// allows only this origin) and nothing is fetched from elsewhere: Swagger UI's validator badge is turned off.

/** The start-up script, served as /api/docs/docs-init.js. */
export const DOCS_INIT_SCRIPT = 'docs-init.js';

export const DOCS_TITLE = 'Recipe manager API';

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${DOCS_TITLE}</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="stylesheet" href="docs/index.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/swagger-ui-standalone-preset.js"></script>
<script src="docs/${DOCS_INIT_SCRIPT}"></script>
</body>
</html>
`;

export const DOCS_SCRIPT = `// Swagger UI for the recipe manager: the OpenAPI document of this server, calls to this server.
window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout',
  validatorUrl: null,
  persistAuthorization: true,
});
`;

/**
 * The page's policy: scripts, styles, images and calls from this origin only (Swagger UI sets inline styles
 * and shows its icons as data: URLs).
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');
