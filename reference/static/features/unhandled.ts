// The last step: a request nothing answered gets the `unhandled` response chosen by its Accept header, or
// the built-in 404. The choice only looks at media types the client names explicitly (never wildcards),
// best q first and header order on ties; the first that maps to a configured key wins, else `*`.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { lookup } from 'mrmime';
import type { UnhandledEntry, UnhandledKey, UnhandledOptions } from '../config/site-config.ts';
import type { Handler, Request, Response, SiteContext } from '../site/handler.ts';

const NOT_FOUND = 'Not Found';
const KEY_TYPES: Record<UnhandledKey, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  '*': 'text/plain; charset=utf-8',
};

interface Prepared {
  status: number;
  headers: Record<string, string | number>;
  /** Fixed body (from `send`, or `file` read at startup in production). */
  body: Buffer | null;
  /** File read per request in development, so edits show without a restart. */
  file: string | null;
}

/** Maps one explicit media type to an Accept key; null for wildcards and anything else. */
export function keyOfMediaType(mediaType: string): UnhandledKey | null {
  const type = mediaType.toLowerCase();
  if (type.includes('*')) return null;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  return null;
}

/**
 * The configured key for the client's media types (already ordered best first), `*` when none fits,
 * null when `*` is not configured either.
 */
export function chooseKey(mediaTypes: readonly string[], configured: ReadonlySet<UnhandledKey>): UnhandledKey | null {
  for (const mediaType of mediaTypes) {
    const key = keyOfMediaType(mediaType);
    if (key !== null && configured.has(key)) return key;
  }
  return configured.has('*') ? '*' : null;
}

export async function createUnhandled(options: UnhandledOptions | null, ctx: SiteContext): Promise<Handler> {
  const prepared = new Map<UnhandledKey, Prepared>();
  for (const [key, entry] of Object.entries(options ?? {}) as [UnhandledKey, UnhandledEntry][]) {
    prepared.set(key, prepare(key, entry, ctx));
  }
  const configured = new Set(prepared.keys());
  // Only `*` (or nothing) configured: no negotiation needed per request.
  const fixed = configured.size === 0 || (configured.size === 1 && configured.has('*'));
  // accepts (with its mime database) is loaded only when there is something to negotiate.
  const accepts = fixed ? null : (await import('accepts')).default;
  // accepts/negotiator lists the named types sorted by q (q=0 dropped), header order on ties.
  const typesOf = (req: Request): string[] => (req.headers.accept && accepts ? (accepts(req).types() as string[]) : []);

  return async (req, res) => {
    const key = fixed ? (configured.has('*') ? '*' : null) : chooseKey(typesOf(req), configured);
    const entry = key === null ? undefined : prepared.get(key);
    if (entry === undefined) return sendDefault(req, res);
    const body = entry.body ?? (await readFile(entry.file!));
    const headers = { ...entry.headers };
    if (!isBodiless(entry.status)) headers['Content-Length'] = body.length;
    res.writeHead(entry.status, headers);
    res.end(req.method === 'HEAD' || isBodiless(entry.status) ? undefined : body);
  };
}

function prepare(key: UnhandledKey, entry: UnhandledEntry, ctx: SiteContext): Prepared {
  const headers: Record<string, string | number> = {};
  const hasType = entry.headers.some(([name]) => name.toLowerCase() === 'content-type');
  if (!hasType) {
    if (entry.send !== null) headers['Content-Type'] = entry.send.json ? KEY_TYPES.json : KEY_TYPES[key];
    else if (entry.file !== null) headers['Content-Type'] = typeOfFile(entry.file);
    else headers['Content-Type'] = KEY_TYPES[key];
  }
  for (const [name, value] of entry.headers) headers[name] = value;

  let body: Buffer | null = Buffer.alloc(0);
  let file: string | null = null;
  if (entry.send !== null) body = Buffer.from(entry.send.body, 'utf8');
  else if (entry.file !== null && ctx.mode === 'production') body = readFileSync(entry.file);
  else if (entry.file !== null) {
    body = null;
    file = entry.file;
  }
  return { status: entry.status, headers, body, file };
}

function typeOfFile(file: string): string {
  const type = lookup(file) ?? 'application/octet-stream';
  return type.startsWith('text/') || type === 'application/json' ? `${type}; charset=utf-8` : type;
}

function isBodiless(status: number): boolean {
  return status === 204 || status === 304;
}

function sendDefault(req: Request, res: Response): void {
  res.writeHead(404, { 'Content-Type': KEY_TYPES['*'], 'Content-Length': NOT_FOUND.length });
  res.end(req.method === 'HEAD' ? undefined : NOT_FOUND);
}
