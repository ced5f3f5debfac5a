// CGI/1.1 scripts under a URL prefix: `<path>/<script><ext>[/extra/path][?query]` runs `<dir>/<script><ext>`
// with the request body on stdin; its header block (ended by a blank line) becomes the response head and the
// rest of its output is streamed as it arrives.
import { type ChildProcess, spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { dirname, extname, resolve } from 'node:path';
import {
  childKey,
  directoryForms,
  expectObject,
  expectString,
  expectUrlPath,
  show,
} from '../config/check-values.ts';
import { ConfigError } from '../config/config-error.ts';
import type { Handler, Request, Response, SiteContext } from '../site/handler.ts';
import { describeError as describe, sendText } from '../site/send.ts';
import { insideFolder } from './folder-links.ts';

export interface CgiOptions {
  /** URL path the scripts are mounted at: starts with `/`, no trailing slash except the root `/`. */
  path: string;
  /** Absolute directory holding the scripts. */
  dir: string;
  /** Lower-case extensions, with the dot, that mark a runnable script. */
  extensions: string[];
  /** Extension => interpreter argv (the script path is appended); absent = the script is executed itself. */
  interpreters: Record<string, string[]>;
}

const DEFAULT_PATH = '/cgi-bin';
const DEFAULT_DIR = './cgi-bin';
const DEFAULT_EXTENSIONS = ['.cgi', '.pl', '.py', '.sh'];
const OPTION_KEYS = ['path', 'dir', 'extensions', 'interpreters'];
/** A header block longer than this is not a header block: the output is sent as a plain body. */
const MAX_HEADER_BYTES = 64 * 1024;
/** Grace between SIGTERM and SIGKILL when a client goes away. */
const KILL_GRACE_MS = 2000;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
const STATUS_VALUE = /^([1-5]\d\d)(?:[ \t]+(.*))?$/;
/** Hop-by-hop fields belong to the connection Node manages, not to the script. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'trailer']);

// ---------------------------------------------------------------------------------------------- options

export function normalizeCgi(value: unknown, key: string, ctx: SiteContext): CgiOptions[] {
  return directoryForms(
    value,
    key,
    (dir) => ({ ...defaults(ctx), dir: resolve(ctx.baseDir, dir) }),
    (item, itemKey) => normalizeEntry(item, itemKey, ctx),
  );
}

function defaults(ctx: SiteContext): CgiOptions {
  return {
    path: DEFAULT_PATH,
    dir: resolve(ctx.baseDir, DEFAULT_DIR),
    extensions: [...DEFAULT_EXTENSIONS],
    interpreters: {},
  };
}

function normalizeEntry(value: unknown, key: string, ctx: SiteContext): CgiOptions {
  const entry = expectObject(value, key);
  for (const name of Object.keys(entry)) {
    if (!OPTION_KEYS.includes(name)) {
      throw new ConfigError(childKey(key, name), `is not a cgi option (allowed: ${OPTION_KEYS.join(', ')})`);
    }
  }
  const out = defaults(ctx);
  if (entry.path !== undefined) out.path = expectUrlPath(entry.path, `${key}.path`);
  if (entry.dir !== undefined) out.dir = resolve(ctx.baseDir, expectString(entry.dir, `${key}.dir`));
  if (entry.extensions !== undefined) {
    const list = entry.extensions;
    if (!Array.isArray(list) || !list.every((e) => typeof e === 'string' && e.replace(/^\./, '') !== '')) {
      throw new ConfigError(`${key}.extensions`, `must be an array of extensions like ".py" (got ${show(list)})`);
    }
    out.extensions = list.map((e: string) => dotted(e));
  }
  if (entry.interpreters !== undefined) {
    for (const [ext, command] of Object.entries(expectObject(entry.interpreters, `${key}.interpreters`))) {
      const argv = typeof command === 'string' ? command.trim().split(/\s+/).filter(Boolean) : [];
      if (argv.length === 0 || ext.replace(/^\./, '') === '') {
        throw new ConfigError(childKey(`${key}.interpreters`, ext), `must be a command string (got ${show(command)})`);
      }
      out.interpreters[dotted(ext)] = argv;
    }
  }
  return out;
}

const dotted = (ext: string): string => (ext.startsWith('.') ? ext : `.${ext}`).toLowerCase();

// ---------------------------------------------------------------------------------------------- handler

interface Target {
  script: string;
  scriptName: string;
  pathInfo: string;
  interpreter: string[] | undefined;
}

interface Mount extends CgiOptions {
  /** `path` as a prefix: `''` for the root mount. */
  prefix: string;
  realDir: string | undefined;
}

export function createCgiHandler(options: CgiOptions[], ctx: SiteContext): Handler {
  // Longest prefix first, so `/cgi-bin/admin` wins over `/cgi-bin`.
  const mounts: Mount[] = options
    .map((o) => ({ ...o, prefix: o.path === '/' ? '' : o.path, realDir: undefined }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return async (req, res, next) => {
    let target: Target | 'bad-request' | undefined;
    try {
      target = await locate(mounts, req.path);
    } catch (err) {
      ctx.warn(`cgi: ${describe(err)}`);
      return sendText(res, 500, 'Internal Server Error');
    }
    if (target === 'bad-request') return sendText(res, 400, 'Bad Request');
    if (target === undefined) return next();
    try {
      run(target, req, res);
    } catch (err) {
      process.stderr.write(`[cgi ${target.scriptName}] ${describe(err)}\n`);
      sendText(res, 500, 'Internal Server Error');
    }
  };
}

async function locate(mounts: Mount[], rawPath: string): Promise<Target | 'bad-request' | undefined> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return mounts.some((m) => rawPath.startsWith(`${m.prefix}/`)) ? 'bad-request' : undefined;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return undefined;
  for (const mount of mounts) {
    if (!pathname.startsWith(`${mount.prefix}/`)) continue;
    const segments = pathname.slice(mount.prefix.length + 1).split('/');
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (segment === '' || segment === '.' || segment === '..') break;
      const ext = extname(segment).toLowerCase();
      if (!mount.extensions.includes(ext)) continue;
      const script = resolve(mount.dir, ...segments.slice(0, i + 1));
      const kind = await fileKind(script);
      if (kind === 'dir') continue;
      // The real script (symlinks followed) must stay inside the real configured directory.
      if (kind !== 'file' || !(await insideFolder(mount, script))) break;
      const rest = segments.slice(i + 1);
      return {
        script,
        scriptName: `${mount.prefix}/${segments.slice(0, i + 1).join('/')}`,
        pathInfo: rest.length > 0 ? `/${rest.join('/')}` : '',
        interpreter: mount.interpreters[ext],
      };
    }
  }
  return undefined;
}

async function fileKind(file: string): Promise<'file' | 'dir' | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------- process

function run(target: Target, req: Request, res: Response): void {
  const [command, ...args] = target.interpreter ? [...target.interpreter, target.script] : [target.script];
  const label = `[cgi ${target.scriptName}] `;
  // Own process group, so a disconnect also stops whatever the script started.
  const child = spawn(command!, args, {
    cwd: dirname(target.script),
    env: cgiEnv(target, req),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let phase: 'head' | 'body' | 'done' = 'head';
  let head = Buffer.alloc(0);

  const fail = (why: string): void => {
    if (phase === 'done') return;
    process.stderr.write(`${label}${why}\n`);
    if (phase === 'head') sendText(res, 500, 'Internal Server Error');
    else res.destroy();
    phase = 'done';
    stop(child);
  };
  const write = (chunk: Buffer): void => {
    if (chunk.length === 0) return;
    if (!res.write(chunk)) {
      child.stdout?.pause();
      res.once('drain', () => child.stdout?.resume());
    }
    // The compression middleware buffers unless told to flush; CGI output is meant to stream.
    (res as Response & { flush?: () => void }).flush?.();
  };
  const startBody = (status: number, headers: [string, string][], message?: string): void => {
    const seen = new Set<string>();
    for (const [name, value] of headers) {
      const lower = name.toLowerCase();
      if (seen.has(lower)) res.appendHeader(name, value);
      else res.setHeader(name, value);
      seen.add(lower);
    }
    res.statusCode = status;
    if (message) res.statusMessage = message;
    phase = 'body';
    res.flushHeaders();
  };

  child.on('error', (err) => fail(`cannot run: ${describe(err)}`));
  if (child.stdin) {
    // A script that ignores its input may close the pipe early: drop the rest of the body.
    child.stdin.on('error', () => req.resume());
    req.pipe(child.stdin);
  } else req.resume();
  if (child.stderr) pipeLines(child.stderr, label);

  child.stdout!.on('data', (chunk: Buffer) => {
    if (phase === 'body') return write(chunk);
    if (phase !== 'head') return;
    head = Buffer.concat([head, chunk]);
    const block = scanHeaderBlock(head);
    if (block === 'incomplete') return;
    try {
      if (block === 'none') {
        startBody(200, [['Content-Type', 'text/plain']]);
        write(head);
      } else {
        const { status, message, headers } = interpret(block.headers);
        startBody(status, headers, message);
        write(head.subarray(block.bodyStart));
      }
    } catch (err) {
      fail(`bad output header: ${describe(err)}`);
    }
    head = Buffer.alloc(0);
  });

  child.on('close', (code, signal) => {
    if (phase === 'body') res.end();
    else if (phase === 'head') {
      if (head.length === 0 && (code !== 0 || signal)) return fail(`exited with ${signal ?? code} and no output`);
      // The output ended without a complete header block: it is all body.
      startBody(200, [['Content-Type', 'text/plain']]);
      res.end(head);
    }
    phase = 'done';
  });

  res.on('close', () => {
    if (!res.writableFinished) stop(child);
  });
}

function stop(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const kill = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
  };
  kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS);
  timer.unref();
  child.once('exit', () => clearTimeout(timer));
}

function cgiEnv(target: Target, req: Request): NodeJS.ProcessEnv {
  const socket = req.socket;
  const search = req.search ?? '';
  const env: NodeJS.ProcessEnv = {
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_SOFTWARE: 'static-proxy',
    SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
    SERVER_NAME: hostWithoutPort(req.headers.host) || (socket.localAddress ?? ''),
    SERVER_PORT: String(socket.localPort ?? ''),
    REQUEST_METHOD: req.method ?? 'GET',
    REQUEST_URI: req.originalUrl ?? req.url,
    QUERY_STRING: search.startsWith('?') ? search.slice(1) : search,
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    CONTENT_LENGTH: req.headers['content-length'] ?? '',
    SCRIPT_FILENAME: target.script,
    SCRIPT_NAME: target.scriptName,
    PATH_INFO: target.pathInfo,
    REMOTE_ADDR: socket.remoteAddress ?? '',
    REMOTE_PORT: String(socket.remotePort ?? ''),
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  };
  for (const [name, value] of Object.entries(req.headers)) {
    // `Proxy:` would become HTTP_PROXY, which many tools read as their outgoing proxy (httpoxy). A name with an
    // underscore would share its variable with the dashed one (`X_User` and `X-User` are both HTTP_X_USER), so a
    // client could pass off a header a front proxy set or checked: dropped, as Apache and nginx do.
    if (value === undefined || name === 'proxy' || name.includes('_')) continue;
    env[`HTTP_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = Array.isArray(value) ? value.join(', ') : value;
  }
  return env;
}

function hostWithoutPort(host: string | undefined): string {
  if (!host) return '';
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1) || host;
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

// ---------------------------------------------------------------------------------------------- output

type HeaderBlock = { headers: [string, string][]; bodyStart: number } | 'incomplete' | 'none';

/** Finds the header block at the start of `buf`: header lines (`\n` or `\r\n`) ended by a blank line. */
export function scanHeaderBlock(buf: Buffer): HeaderBlock {
  const headers: [string, string][] = [];
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, start);
    if (nl === -1) return buf.length > MAX_HEADER_BYTES ? 'none' : 'incomplete';
    const end = nl > start && buf[nl - 1] === 0x0d ? nl - 1 : nl;
    if (end === start) return headers.length > 0 ? { headers, bodyStart: nl + 1 } : 'none';
    const match = HEADER_LINE.exec(buf.toString('latin1', start, end));
    if (!match) return 'none';
    headers.push([match[1]!, match[2]!]);
    start = nl + 1;
    if (start > MAX_HEADER_BYTES) return 'none';
  }
}

function interpret(lines: [string, string][]): { status: number; message?: string; headers: [string, string][] } {
  let status: number | undefined;
  let message: string | undefined;
  let location = false;
  const headers: [string, string][] = [];
  for (const [name, value] of lines) {
    const lower = name.toLowerCase();
    if (lower === 'status') {
      const match = STATUS_VALUE.exec(value);
      if (!match) throw new Error(`invalid Status ${JSON.stringify(value)}`);
      status = Number(match[1]);
      message = match[2] || undefined;
    } else if (!HOP_BY_HOP.has(lower)) {
      // Checked here so that a bad value is a clean 500, not a response with half the headers set.
      validateHeaderName(name);
      validateHeaderValue(name, value);
      if (lower === 'location') location = true;
      headers.push([name, value]);
    }
  }
  // RFC 3875 6.2.3: a Location without a Status is a redirect.
  return { status: status ?? (location ? 302 : 200), message, headers };
}

/** Copies a child's stderr to ours, one prefixed line at a time. */
function pipeLines(stream: NodeJS.ReadableStream, prefix: string): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) process.stderr.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => {
    if (rest !== '') process.stderr.write(`${prefix}${rest}\n`);
  });
}

