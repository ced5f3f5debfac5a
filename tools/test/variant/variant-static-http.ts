// The variant's answers: every request the reference's servers receive (in this process) passes through
// here first. A response is decided once its status and headers are known: passed on with header edits,
// rewritten whole (a short answer the variant words its own way), or transformed as it streams (the event
// stream). Only what document 002 leaves open is changed.
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { StaticVariant } from './variant-static-variants.ts';

export interface SitePaths {
  health: string[];
  upload: string[];
}

const EVENTS = '/__hot-reload__';
const CLIENT = '/__hot-reload__/client.js';
const CLIENT_TAG = `<script src="${CLIENT}"></script>`;
const SLOW_MS = 50;
const DEFAULT_RATE_MESSAGE = 'Too many requests, please try again later.';
const RATE_HEADERS = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];

const CLIENT_SCRIPT = `// static-variant live reload
(() => {
  const open = () => {
    const stream = new EventSource('${EVENTS}');
    stream.addEventListener('change', () => location.reload());
    stream.addEventListener('error', () => {
      stream.close();
      setTimeout(open, 3000);
    });
  };
  open();
})();
`;

const page = (title: string, text: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`;

interface Rewritten {
  status: number;
  type: string;
  body: string | Buffer;
}

type Plan =
  | { kind: 'pass' }
  | { kind: 'buffer'; rewrite: (body: Buffer) => Rewritten | undefined }
  | { kind: 'stream'; transform: (text: string) => string };

const header = (res: ServerResponse, name: string): string => String(res.getHeader(name) ?? '');
const type = (res: ServerResponse): string => header(res, 'content-type').split(';')[0]!.trim().toLowerCase();
const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?')[0]!;
const under = (path: string, prefix: string): boolean => path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/** Server-sent events of the reference (connected greeting, reload with a JSON path) in the variant's
 * words; blocks are cut at blank lines, so a chunk may end in the middle of one. */
function eventsTransformer(): (text: string) => string {
  let rest = '';
  return (text) => {
    rest += text;
    const blocks = rest.split('\n\n');
    rest = blocks.pop() ?? '';
    return blocks
      .map((block) => {
        if (/^event: connected$/m.test(block)) return '';
        const reload = /^event: reload\ndata: (.*)$/m.exec(block);
        if (reload) {
          const { path } = JSON.parse(reload[1]!) as { path: string };
          return `event: change\ndata: ${path}\n\n`;
        }
        return `${block}\n\n`;
      })
      .join('');
  };
}

/** Header edits and the plan for one response, decided when its status and headers are known. */
function decide(on: (v: StaticVariant) => boolean, paths: SitePaths, req: IncomingMessage, res: ServerResponse, status: number): { status: number; plan: Plan } {
  const method = req.method ?? 'GET';
  const path = pathOf(req);
  const contentType = type(res);
  if (on('cors-200') && method === 'OPTIONS' && status === 204 && res.hasHeader('access-control-allow-methods')) {
    res.setHeader('content-length', '0');
    status = 200;
  }
  if (on('no-ratelimit-headers')) for (const name of RATE_HEADERS) res.removeHeader(name);
  if (on('realm-alt') && header(res, 'www-authenticate') === 'Basic realm="Restricted"') res.setHeader('www-authenticate', 'Basic realm="static-variant", charset="UTF-8"');
  if (on('mime-alt')) {
    if (contentType === 'image/x-icon') res.setHeader('content-type', 'image/vnd.microsoft.icon');
    else if (contentType.startsWith('text/') && !/charset=/i.test(header(res, 'content-type'))) res.setHeader('content-type', `${contentType}; charset=utf-8`);
    if ((method === 'GET' || method === 'HEAD') && status === 200 && paths.upload.some((p) => under(path, p))) {
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-disposition', 'attachment');
    }
  }
  if (on('events-alt') && contentType === 'text/event-stream') return { status, plan: { kind: 'stream', transform: eventsTransformer() } };
  if (method === 'HEAD' || res.hasHeader('content-encoding')) return { status, plan: { kind: 'pass' } };

  const rewrites: ((body: Buffer) => Rewritten | undefined)[] = [];
  const ownError = contentType === 'text/plain' && [404, 401, 429, 500, 502].includes(status);
  const uploadError = method === 'POST' && (status === 400 || status === 413) && contentType === 'application/json';
  if (on('other-errors') && (ownError || uploadError)) {
    rewrites.push((body) => {
      const text = body.toString('utf8');
      if (contentType === 'text/plain') {
        if (status === 404 && text === 'Not Found') return { status, type: 'text/html; charset=utf-8', body: page('Not here', `Nothing is served at ${escapeHtml(path)}.`) };
        if (status === 401 && text === 'Unauthorized') return { status, type: 'text/html; charset=utf-8', body: page('Sign in first', 'This site asks for a user name and password.') };
        if (status === 429 && text === DEFAULT_RATE_MESSAGE) return { status, type: 'application/json', body: JSON.stringify({ error: 'rate limit exceeded' }) };
        if (status === 500) return { status, type: 'text/html; charset=utf-8', body: page('Server error', 'The request could not be completed.') };
        if (status === 502 && text === 'Bad Gateway') return { status: 503, type: 'text/plain; charset=utf-8', body: 'upstream unavailable\n' };
      }
      if (method === 'POST' && (status === 400 || status === 413) && contentType === 'application/json') {
        const error = (JSON.parse(text) as { error?: unknown }).error;
        if (typeof error === 'string') return { status, type: 'text/plain; charset=utf-8', body: `upload refused: ${error}\n` };
      }
      return undefined;
    });
  }
  if (on('health-extra') && method === 'GET' && status === 200 && paths.health.includes(path) && contentType === 'application/json') {
    rewrites.push((body) => {
      const health = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      return { status, type: 'application/health+json', body: JSON.stringify({ service: 'static-variant', ...health, pid: process.pid, checks: {} }) };
    });
  }
  if (on('upload-201') && method === 'POST' && status === 200 && contentType === 'application/json' && paths.upload.some((p) => path === p)) {
    rewrites.push((body) => {
      const answer = JSON.parse(body.toString('utf8')) as { files?: { file: string }[] };
      if (!Array.isArray(answer.files)) return undefined;
      const files = answer.files.map((f) => ({ ...f, url: `${path}/${encodeURIComponent(f.file)}` }));
      return { status: 201, type: 'application/json; charset=utf-8', body: JSON.stringify({ count: files.length, files }) };
    });
  }
  if (on('events-alt') && method === 'GET' && status === 200 && path === CLIENT && /javascript/.test(contentType)) {
    rewrites.push(() => ({ status, type: 'text/javascript; charset=utf-8', body: CLIENT_SCRIPT }));
  }
  if (on('no-inject') && status === 200 && contentType === 'text/html') {
    rewrites.push((body) => {
      const html = body.toString('utf8');
      const at = html.lastIndexOf(CLIENT_TAG);
      if (at === -1) return undefined;
      return { status, type: header(res, 'content-type'), body: html.slice(0, at) + html.slice(at + CLIENT_TAG.length) };
    });
  }
  if (rewrites.length === 0) return { status, plan: { kind: 'pass' } };
  return {
    status,
    plan: {
      kind: 'buffer',
      rewrite: (body) => {
        let out: Rewritten | undefined;
        for (const rewrite of rewrites) {
          const next = rewrite(out === undefined ? body : Buffer.from(out.body));
          if (next !== undefined) out = next;
        }
        return out;
      },
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Callback = (error?: Error | null) => void;

/** Wraps `res` so that its head and body go through the plan decided for it. */
function intercept(on: (v: StaticVariant) => boolean, paths: SitePaths, req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, reason?: string) => ServerResponse;
  const write = res.write.bind(res) as (chunk: unknown, encoding?: unknown, cb?: unknown) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, encoding?: unknown, cb?: unknown) => ServerResponse;
  let plan: Plan | undefined;
  let status: number | undefined;
  let reason: string | undefined;
  const chunks: Buffer[] = [];

  /** The plan, once the head has gone through every writeHead wrapper (on-headers hooks of the reference's
   * middleware sit above this one): a body written without one gets the implicit head first, as Node does. */
  const choose = (): Plan => {
    if (!plan) res.writeHead(res.statusCode);
    return plan!;
  };
  const asBuffer = (chunk: unknown, encoding: unknown): Buffer =>
    Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding) : Buffer.from(chunk as Uint8Array);

  res.writeHead = ((code: number, ...rest: unknown[]) => {
    status = code;
    if (typeof rest[0] === 'string') reason = rest[0];
    const headers = rest.find((r) => typeof r === 'object' && r !== null) as OutgoingHttpHeaders | unknown[] | undefined;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1] as string);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    }
    if (plan) return res;
    const decided = decide(on, paths, req, res, status);
    plan = decided.plan;
    status = decided.status;
    if (plan.kind !== 'buffer') writeHead(status, ...(reason === undefined ? [] : [reason]));
    return res;
  }) as typeof res.writeHead;

  res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
    const p = choose();
    if (p.kind === 'buffer') {
      chunks.push(asBuffer(chunk, encoding));
      const done = (typeof encoding === 'function' ? encoding : cb) as Callback | undefined;
      if (done) process.nextTick(done);
      return true;
    }
    if (p.kind === 'stream') return write(p.transform(asBuffer(chunk, encoding).toString('utf8')), cb ?? (typeof encoding === 'function' ? encoding : undefined));
    return write(chunk, encoding, cb);
  }) as typeof res.write;

  res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
    const p = choose();
    const hasChunk = chunk !== undefined && chunk !== null && typeof chunk !== 'function';
    if (p.kind === 'buffer') {
      if (hasChunk) chunks.push(asBuffer(chunk, encoding));
      const done = [chunk, encoding, cb].find((a) => typeof a === 'function') as Callback | undefined;
      const body = Buffer.concat(chunks);
      let out: Rewritten | undefined;
      try {
        out = p.rewrite(body);
      } catch {
        out = undefined;
      }
      if (out === undefined) {
        writeHead(status ?? res.statusCode, ...(reason === undefined ? [] : [reason]));
        return end(body, done);
      }
      const bytes = Buffer.from(out.body);
      res.setHeader('content-type', out.type);
      res.setHeader('content-length', String(bytes.length));
      writeHead(out.status);
      return end(bytes, done);
    }
    if (p.kind === 'stream' && hasChunk) return end(p.transform(asBuffer(chunk, encoding).toString('utf8')), typeof encoding === 'function' ? encoding : cb);
    return end(chunk, encoding, cb);
  }) as typeof res.end;
}

let requests = 0;

/** Puts the variant in front of every request of every HTTP(S) server this process creates. */
export function installHttpVariants(on: (v: StaticVariant) => boolean, paths: SitePaths): void {
  for (const proto of [http.Server.prototype, https.Server.prototype] as { emit: (event: string, ...args: unknown[]) => boolean }[]) {
    const emit = proto.emit;
    proto.emit = function (this: unknown, event: string, ...args: unknown[]): boolean {
      if (event !== 'request') return emit.call(this, event, ...args);
      const [req, res] = args as [IncomingMessage, ServerResponse];
      if (on('extra-headers')) {
        res.setHeader('X-Served-By', 'static-variant');
        res.setHeader('X-Request-Id', `v-${process.pid}-${++requests}`);
      }
      intercept(on, paths, req, res);
      if (on('slow')) setTimeout(() => emit.call(this, event, req, res), SLOW_MS);
      else emit.call(this, event, req, res);
      return true;
    };
  }
}
