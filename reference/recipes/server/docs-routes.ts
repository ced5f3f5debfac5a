// The API's documentation (catalog recipes/docs/*), public:
//
//   GET /api/openapi.json    the OpenAPI 3.1 document (openapi-document.ts)
//   GET /api/docs            Swagger UI's page (docs-page.ts), text/html; /api/docs/ redirects there
//   GET /api/docs/<file>     the page's files: swagger-ui-dist's (docs-assets.ts) and its start-up script;
//                            any other name answers 404 with the JSON error body
//
// Everything is made or located at start-up; a file is read once. Answers carry an ETag (304 to If-None-Match),
// their Cache-Control (the package's files a day, the page and the document revalidated each time), nosniff,
// and the gzip form when the client accepts it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Polka } from 'polka';
import { ApiError } from './api-error.ts';
import { isPackageAsset, memoryFile, packageAssets, type StaticFile } from './docs-assets.ts';
import { DOCS_CSP, DOCS_INIT_SCRIPT, DOCS_PAGE, DOCS_SCRIPT } from './docs-page.ts';
import { openApiDocument } from './openapi-document.ts';
import type { ServerContext } from './server-context.ts';

const REVALIDATE = 'no-cache';

const acceptsGzip = (req: IncomingMessage) => /\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''));

/** Whether If-None-Match names `etag` (or is *). */
function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

function sendFile(req: IncomingMessage, res: ServerResponse, file: StaticFile, headers: Record<string, string> = {}): void {
  const common = {
    ...headers,
    ETag: file.etag,
    'Cache-Control': file.cacheControl,
    'X-Content-Type-Options': 'nosniff',
    ...(file.gzipped === undefined ? {} : { Vary: 'Accept-Encoding' }),
  };
  if (notModified(req, file.etag)) {
    res.writeHead(304, common).end();
    return;
  }
  const gzipped = file.gzipped !== undefined && acceptsGzip(req);
  const body = gzipped ? file.gzipped! : file.body;
  res.writeHead(200, {
    ...common,
    'Content-Type': file.type,
    'Content-Length': body.length,
    ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
  });
  res.end(body);
}

export function mountDocs(app: Polka, _ctx: ServerContext): void {
  const assets = packageAssets();
  const made = {
    document: memoryFile(JSON.stringify(openApiDocument()), 'application/json; charset=utf-8', REVALIDATE),
    page: memoryFile(DOCS_PAGE, 'text/html; charset=utf-8', REVALIDATE),
    script: memoryFile(DOCS_SCRIPT, 'text/javascript; charset=utf-8', REVALIDATE),
  };

  app.get('/api/openapi.json', async (req, res) => {
    sendFile(req, res, await made.document, { 'Access-Control-Allow-Origin': '*' });
  });

  app.get('/api/docs', async (req, res) => {
    // Polka matches /api/docs/ here too, where the page's relative URLs would miss: send the browser to /api/docs.
    if (req.path.endsWith('/')) {
      const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      res.writeHead(301, { Location: `../docs${search}`, 'Content-Length': 0 }).end();
      return;
    }
    sendFile(req, res, await made.page, { 'Content-Security-Policy': DOCS_CSP, 'X-Frame-Options': 'DENY' });
  });

  app.get('/api/docs/:asset', async (req, res) => {
    const name = req.params['asset']!;
    if (name === DOCS_INIT_SCRIPT) return sendFile(req, res, await made.script);
    if (!isPackageAsset(name)) throw new ApiError(404, `No docs file ${JSON.stringify(name.slice(0, 100))}`);
    sendFile(req, res, await assets(name));
  });
}
