// Static folders through sirv, one sirv instance per mount, tried longest mount first and in configured
// order within a mount. Production uses sirv's start-up file index (`dev: false`) and answers small files from
// memory (file-cache.ts); development reads the disk per request so new files appear. With hot reload, HTML pages are read here and sent with the
// client script injected instead of being streamed by sirv. A file reached through a link out of its
// folder is not served (folder-links.ts).
import { statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { ParsedURL } from '@polka/url';
import sirv, { type RequestHandler } from 'sirv';
import type { FolderMount } from '../config/site-config.ts';
import type { Handler, Request, Response, SiteContext } from '../site/handler.ts';
import { FileCache } from './file-cache.ts';
import { insideFolder, type LinkIndex, scanFolder, sirvCandidates } from './folder-links.ts';

interface Mount {
  mount: string;
  dir: string;
  serve: RequestHandler;
  /** Read per request (development, or a folder sirv cannot index): links are resolved per request. */
  fromDisk: boolean;
  /** The folder's real path, once a request has needed it. */
  realDir?: string;
  /** Otherwise: the links out of the folder found at start-up (null: none). */
  links: LinkIndex | null;
  /** Otherwise: its small files kept in memory. */
  cache: FileCache | null;
}
/** A single `bytes=start-[end]` range; anything else is ignored (a full 200), which RFC 9110 allows. */
const SIMPLE_RANGE = /^bytes=(\d+)-(\d*)$/;

export function createStaticFolders(
  folders: FolderMount[],
  ctx: SiteContext,
  injectHtml: ((html: string) => string) | null,
): Handler {
  const dev = ctx.mode === 'development';
  const mounts: Mount[] = [];
  for (const folder of folders) {
    // sirv indexes the folder at creation in production; a folder missing then has nothing to serve.
    if (!dev && !existingDirectory(folder.dir)) continue;
    const scan = dev ? null : scanFolder(folder.dir);
    if (scan?.unindexable) ctx.warn(`${folder.key}: read from disk on every request, as the start-up index cannot take ${scan.unindexable}`);
    const fromDisk = scan === null || scan.unindexable !== null;
    const cache = fromDisk ? null : new FileCache(folder.dir, scan!.files);
    mounts.push({ mount: folder.mount, dir: folder.dir, serve: sirv(folder.dir, { dev: fromDisk }), fromDisk, links: scan?.links ?? null, cache });
  }
  if (mounts.length === 0) return (_req, _res, next) => next();

  const checked = injectHtml !== null || mounts.some((m) => m.fromDisk);
  const only = !checked && mounts.length === 1 && mounts[0]!.mount === '/' && mounts[0]!.links === null ? mounts[0]! : null;

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    // Dotfiles and `.`/`..` segments are never served (sirv's dev mode would serve dotfiles).
    if (path.includes('/.')) return next();
    if (req.headers.range !== undefined) checkRange(req);
    // Hot path: one root folder and a path that needed no decoding, so sirv's own URL parse is right.
    if (only !== null && path === req._parsedUrl.pathname) {
      if (only.cache!.serve(path, req, res)) return;
      res.once('pipe', guardStream);
      return only.serve(req, res, () => miss(res, next));
    }
    res.once('pipe', guardStream);
    if (checked) return serveFromDisk(mounts, injectHtml, req, res, () => miss(res, next));
    const original = req._parsedUrl;
    for (const mount of mounts) {
      const rest = restOf(path, mount.mount);
      if (rest !== null && !mount.links?.refuses(rest) && (mount.cache?.serve(rest, req, res) || trySirv(mount, rest, req, res))) return;
    }
    req._parsedUrl = original;
    miss(res, next);
  };
}

/**
 * sirv pipes a read stream into the response after writing the head and never listens for its errors:
 * a file removed after the start-up index (or between stat and open) would be an uncaught error and a
 * response that never ends. The head is already out then, so the connection is cut.
 */
function guardStream(this: Response, source: NodeJS.ReadableStream): void {
  source.once('error', () => this.destroy());
}

/** Nothing served: later features (proxy, cgi) pipe into the response too and handle their own errors. */
function miss(res: Response, next: () => void): void {
  res.off('pipe', guardStream);
  next();
}

function existingDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The path below `mount`, or null when the mount does not apply (segment boundary, like the proxy). */
function restOf(path: string, mount: string): string | null {
  if (mount === '/') return path;
  if (path === mount) return '/';
  if (path.startsWith(mount) && path.charCodeAt(mount.length) === 47) return path.slice(mount.length);
  return null;
}

/**
 * Runs one sirv instance on `rest` and says whether it answered. sirv reads the pathname from
 * `req._parsedUrl` (when its `raw` equals `req.url`) and decodes it once more with decodeURI; the path is
 * already decoded, so only `%` is escaped again and sirv ends up with exactly the decoded path.
 * sirv 3 calls `next` synchronously on a miss, which makes the answer known on return.
 */
function trySirv(mount: Mount, rest: string, req: Request, res: Response): boolean {
  const parsed: ParsedURL = {
    pathname: rest.includes('%') ? rest.replaceAll('%', '%25') : rest,
    search: '',
    query: undefined,
    hash: undefined,
    raw: req.url,
  };
  req._parsedUrl = parsed;
  let missed = false;
  mount.serve(req, res, () => {
    missed = true;
  });
  return !missed;
}

/** sirv trusts the Range header; an inverted or multi-part range would throw inside it after the head. */
function checkRange(req: Request): void {
  const match = SIMPLE_RANGE.exec(req.headers.range ?? '');
  if (match === null || (match[2] !== '' && Number(match[2]) < Number(match[1]))) delete req.headers.range;
}

/** A mount read from disk, or hot reload: the file sirv would pick is looked up on disk first (to check where
 * it leads, or to inject into a page). */
async function serveFromDisk(
  mounts: Mount[],
  injectHtml: ((html: string) => string) | null,
  req: Request,
  res: Response,
  next: () => void,
): Promise<void> {
  const original = req._parsedUrl;
  for (const mount of mounts) {
    const rest = restOf(req.path, mount.mount);
    if (rest === null) continue;
    const file = await findFile(mount.dir, rest);
    if (mount.fromDisk ? file !== null && !(await insideFolder(mount, file)) : mount.links?.refuses(rest)) continue;
    if (injectHtml !== null && file !== null && /\.html?$/i.test(file)) {
      const html = injectHtml(await readFile(file, 'utf8'));
      res.writeHead(200, {
        'Content-Type': 'text/html;charset=utf-8',
        'Content-Length': Buffer.byteLength(html),
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    if (trySirv(mount, rest, req, res)) return;
  }
  req._parsedUrl = original;
  next();
}

/** The file sirv would pick for `rest` in dev mode, or null; mirrors sirv's candidate order. */
async function findFile(dir: string, rest: string): Promise<string | null> {
  for (const name of sirvCandidates(rest)) {
    const abs = join(dir, name);
    if (!abs.startsWith(dir + sep)) continue;
    try {
      if ((await stat(abs)).isFile()) return abs;
    } catch {
      // not there: next candidate
    }
  }
  return null;
}

