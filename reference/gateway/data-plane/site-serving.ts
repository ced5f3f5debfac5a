// A site's serving sections, built once per config: the access log (morgan) and compression (the
// compression package) wrap every answer of the site; the middleware list rewrites the path (or answers a
// redirect) before anything else sees it; then an upload POST is stored (shared/multipart-upload.ts) and a
// GET/HEAD under the static mount is answered from its folder (serve-static; a missing file falls through
// to the routes). The proxy section decides the Host and X-Forwarded-* headers of the upstream request.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import type { MiddlewareStep, SiteServingConfig } from '../config/gateway-config.ts';
import { receiveUpload, type UploadLimits } from '../../shared/multipart-upload.ts';
import { describeError } from '../../shared/send-json.ts';
import { optionalPackage } from './optional-packages.ts';
import { sendPlain } from './plain-responses.ts';
import { matchesPrefix, pathOf, withoutPrefix } from './route-match.ts';

type Ware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What the middleware list made of a request target. */
export type Rewritten = { url: string } | { redirect: string; status: number };

const noop = (): void => {};

/** Log files stay open for the process (a reload may return to one); the same file is one stream. */
const logStreams = new Map<string, WriteStream>();

function logStream(file: string, warn: (message: string) => void): WriteStream {
  let stream = logStreams.get(file);
  if (stream === undefined) {
    mkdirSync(dirname(file), { recursive: true });
    stream = createWriteStream(file, { flags: 'a' });
    stream.on('error', (error) => warn(`logging: ${file}: ${describeError(error)}`));
    logStreams.set(file, stream);
  }
  return stream;
}

/** Ends every access-log stream (shutdown). */
export function closeLogStreams(): Promise<void> {
  const all = [...logStreams.values()];
  logStreams.clear();
  return Promise.all(all.map((stream) => new Promise<void>((done) => stream.end(done)))).then(noop);
}

/** The path and query of `url` after the middleware steps; the query is kept as it was. */
export function rewrite(steps: readonly MiddlewareStep[], url: string): Rewritten {
  let path = pathOf(url);
  const query = url.slice(path.length);
  for (const step of steps) {
    if (step.kind === 'stripPrefix') {
      if (matchesPrefix(step.prefix, path)) path = withoutPrefix(step.prefix, path);
    } else if (step.kind === 'addPrefix') {
      path = `${step.prefix.replace(/\/$/, '')}${path}`;
    } else if (step.kind === 'replacePathRegex') {
      path = path.replace(step.pattern, step.replacement);
    } else if (step.pattern.test(path)) {
      return { redirect: path.replace(step.pattern, step.replacement) + query, status: step.status };
    }
  }
  return { url: path + query };
}

export class SiteServing {
  readonly config: SiteServingConfig;
  readonly #wrap: Ware[] = [];
  readonly #static: Ware | undefined;
  readonly #upload: UploadLimits | undefined;
  readonly #warn: (message: string) => void;

  constructor(config: SiteServingConfig, warn: (message: string) => void) {
    this.config = config;
    this.#warn = warn;
    const upload = config.upload;
    this.#upload = upload && { dir: upload.dir, maxFileSize: upload.maxBytes, maxFiles: upload.maxFiles, allowedTypes: null, fieldName: null };
    const log = config.logging;
    if (log !== undefined) {
      const stream = log.file === undefined ? process.stdout : logStream(log.file, warn);
      this.#wrap.push(optionalPackage('morgan')(log.format, { stream }) as Ware);
    }
    if (config.compression !== undefined) this.#wrap.push(optionalPackage('compression')({ threshold: config.compression.minBytes }) as unknown as Ware);
    const files = config.static;
    if (files !== undefined) {
      this.#static = optionalPackage('serveStatic')(files.root, {
        index: files.index === false ? false : [files.index],
        maxAge: files.maxAgeSecs * 1000,
        fallthrough: true,
        dotfiles: 'ignore',
      }) as unknown as Ware;
    }
  }

  /** Logging and compression take hold of the answer (both act synchronously). */
  enter(req: IncomingMessage, res: ServerResponse): void {
    for (const ware of this.#wrap) ware(req, res, noop);
  }

  get rewrites(): boolean {
    return this.config.middleware.length > 0;
  }

  /** True when the request is taken here: an upload POST (answered), or a GET/HEAD under the static mount
   * (answered, or `next` called once the file is found missing). False: the caller goes on at once. */
  serve(req: IncomingMessage, res: ServerResponse, path: string, next: () => void): boolean {
    if (this.#upload !== undefined && req.method === 'POST' && path === this.config.upload!.path) {
      receiveUpload(this.#upload, req, res, this.#warn).catch((error) => {
        this.#warn(`upload: ${describeError(error)}`);
        sendPlain(res, 500);
      });
      return true;
    }
    const files = this.config.static;
    if (files === undefined || (req.method !== 'GET' && req.method !== 'HEAD') || !matchesPrefix(files.path, path)) return false;
    const url = req.url ?? '/';
    req.url = withoutPrefix(files.path, path) + url.slice(pathOf(url).length);
    this.#static!(req, res, (error) => {
      req.url = url;
      if (error === undefined) next();
      else {
        this.#warn(`static: ${describeError(error)}`);
        sendPlain(res, 500);
      }
    });
    return true;
  }
}
