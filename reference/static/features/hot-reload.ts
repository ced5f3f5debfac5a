// Development hot reload: a chokidar watcher on the static folders feeds a server-sent event stream at
// `/__hot-reload__`; the script at `/__hot-reload__/client.js` reloads the page on `reload` events.
import { isAbsolute, relative, sep } from 'node:path';
import { watch } from 'chokidar';
import type { Handler, Response, SiteContext } from '../site/handler.ts';

export const EVENTS_PATH = '/__hot-reload__';
export const CLIENT_PATH = '/__hot-reload__/client.js';
export const CLIENT_TAG = `<script src="${CLIENT_PATH}"></script>`;
/** Changes closer together than this are one reload (an editor's "save all", a build writing its outputs; the
 * watcher's events for one burst can come 100 ms or more apart on a busy machine). */
const DEBOUNCE_MS = 200;
/** A comment line this often keeps proxies and browsers from closing an idle stream. */
const KEEP_ALIVE_MS = 30_000;
const RECONNECT_MS = 3000;

const CLIENT_SCRIPT = `// static-proxy hot reload client
(function () {
  var source;
  function connect() {
    source = new EventSource(${JSON.stringify(EVENTS_PATH)});
    source.addEventListener('reload', function () { window.location.reload(); });
    source.onerror = function () {
      source.close();
      setTimeout(connect, ${RECONNECT_MS});
    };
  }
  connect();
})();
`;

export interface HotReload {
  handler: Handler;
  /** Inserts the client script tag before the last `</body>`, or appends it when there is none. */
  injectHtml(html: string): string;
  /** Stops the watcher and ends every open event stream. */
  close(): Promise<void>;
}

export function createHotReload(folders: string[], ctx: SiteContext): HotReload {
  const clients = new Set<Response>();
  const watcher = watch(folders, { ignoreInitial: true });
  let pending: string | undefined;
  let timer: NodeJS.Timeout | undefined;

  const broadcast = (text: string): void => {
    for (const res of clients) {
      res.write(text);
      // The compression middleware holds output back unless flushed.
      (res as Response & { flush?: () => void }).flush?.();
    }
  };
  watcher.on('all', (_event, changed) => {
    pending = relativeTo(folders, changed);
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      broadcast(`event: reload\ndata: ${JSON.stringify({ path: pending })}\n\n`);
    }, DEBOUNCE_MS);
  });
  watcher.on('error', (err) => ctx.warn(`hot reload: watcher error: ${(err as Error).message ?? err}`));
  const keepAlive = setInterval(() => broadcast(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();

  const handler: Handler = (req, res, next) => {
    const method = req.method;
    const path = decodedPath(req.path);
    if (path === EVENTS_PATH && method === 'GET') {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write('event: connected\ndata: {}\n\n');
      (res as Response & { flush?: () => void }).flush?.();
      clients.add(res);
      res.once('close', () => clients.delete(res));
      return;
    }
    if (path === CLIENT_PATH && (method === 'GET' || method === 'HEAD')) {
      res.writeHead(200, {
        'Content-Type': 'application/javascript; charset=utf-8',
        'Content-Length': Buffer.byteLength(CLIENT_SCRIPT),
        'Cache-Control': 'no-cache',
      });
      res.end(method === 'HEAD' ? undefined : CLIENT_SCRIPT);
      return;
    }
    return next();
  };

  return {
    handler,
    injectHtml,
    async close() {
      clearInterval(keepAlive);
      clearTimeout(timer);
      for (const res of clients) res.end();
      clients.clear();
      await watcher.close();
    },
  };
}

export function injectHtml(html: string): string {
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at === -1 ? html + CLIENT_TAG : html.slice(0, at) + CLIENT_TAG + html.slice(at);
}

function decodedPath(path: string): string | undefined {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined; // not ours; a later step answers 400
  }
}

/** The changed path relative to the watched folder holding it (the deepest one), with `/` separators. */
function relativeTo(folders: string[], changed: string): string {
  let best: string | undefined;
  for (const folder of folders) {
    const rel = relative(folder, changed);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    if (best === undefined || rel.length < best.length) best = rel;
  }
  return (best ?? changed).split(sep).join('/');
}
