// A real HTTP server on 127.0.0.1 serving the import fixtures and the awkward answers the import must survive
// (endless, slow, not HTML, redirects…), for the import's tests. Port 0; close() ends every connection.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/recipes/import/', import.meta.url));
export const fixture = (name: string): string => readFileSync(FIXTURES_DIR + name, 'utf8');

/** An awkward path: non-ASCII, a space and a #, percent-encoded in the URL. */
export const AWKWARD_PATH = `/recettes/${encodeURIComponent('crème brûlée #1.html')}`;

const LATIN1_PAGE = '<html><head><title>x</title><meta property="og:title" content="Crème brûlée"></head></html>';
function sendHtml(res: ServerResponse, body: string | Buffer, type = 'text/html; charset=utf-8'): void {
  res.writeHead(200, { 'content-type': type }).end(body);
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

export interface PageServer {
  readonly origin: string;
  /** Every path requested, in order. */
  readonly requests: string[];
  /** How the endless page ended: bytes written before its connection closed, and when it closed. */
  readonly endless: { written: number; closedAt: number | null };
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const requests: string[] = [];
  const endless = { written: 0, closedAt: null as number | null };
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    route(req, res);
  });

  /** Exact paths and what they answer. */
  const routes: Record<string, (res: ServerResponse, url: URL, req: IncomingMessage) => void> = {
    [AWKWARD_PATH]: (res) => sendHtml(res, fixture('jsonld-plain.html')),
    '/xhtml': (res) => sendHtml(res, fixture('microdata.html'), 'application/xhtml+xml'),
    '/gzip': (res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(fixture('jsonld-graph.html')));
    },
    '/latin1': (res) => sendHtml(res, Buffer.from(LATIN1_PAGE, 'latin1'), 'text/html; charset=ISO-8859-1'),
    '/meta-charset': (res) => sendHtml(res, Buffer.from(LATIN1_PAGE.replace('<head>', '<head><meta charset="iso-8859-1">'), 'latin1'), 'text/html'),
    '/image.png': (res) => {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    },
    '/no-type': (res) => {
      res.end('<html><head><meta property="og:title" content="T"></head></html>');
    },
    '/missing': (res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    },
    '/endless': (res) => endlessPage(res),
    '/declared-huge': (res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(6 * 1024 * 1024) }).write('<html>');
    },
    '/silent': () => {}, // never answers
    '/trickle': (res) => tricklePage(res),
    '/redirect-to': (res, url) => {
      res.writeHead(302, { location: url.searchParams.get('location') ?? '' }).end();
    },
    '/redirect-nowhere': (res) => {
      res.writeHead(302).end();
    },
  };

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const exact = routes[url.pathname];
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (exact) exact(res, url, req);
    else if (url.pathname.startsWith('/pages/')) sendHtml(res, fixture(url.pathname.slice('/pages/'.length)));
    else if (redirect) redirectChain(res, Number(redirect[1]), req.headers.host ?? '');
    else res.writeHead(404).end();
  }

  /** /redirect/N redirects N times, then serves a page. */
  function redirectChain(res: ServerResponse, left: number, host: string): void {
    // Relative and absolute Locations, alternately.
    const next = left % 2 ? `/redirect/${left - 1}` : `http://${host}/redirect/${left - 1}`;
    if (left === 0) sendHtml(res, fixture('jsonld-plain.html'));
    else res.writeHead(302, { location: next }).end();
  }

  function endlessPage(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.from(`<p>${'x'.repeat(64 * 1024 - 7)}</p>`);
    res.on('close', () => {
      endless.closedAt = Date.now();
    });
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) endless.written += chunk.length;
      if (!res.destroyed) {
        endless.written += chunk.length;
        res.once('drain', pump);
      }
    };
    pump();
  }

  function tricklePage(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><head><title>slow</title>');
    const timer = setInterval(() => res.write(' '), 50);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    endless,
    async close() {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
