// Multipart uploads with busboy: POST `<path>` stores each file part in `dir` under a sanitised, unique name
// and answers JSON; GET/HEAD `<path>/<saved name>` returns a stored file. A rejected request keeps nothing.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import busboy from 'busboy';
import { lookup } from 'mrmime';
import type { Handler, Request, Response, SiteContext } from '../site/handler.ts';
import { describeError as describe, sendJson, sendText } from '../site/send.ts';
import { closeAfterAnswer } from '../../shared/close-after-answer.ts';
import type { UploadOptions } from './upload-options.ts';

const MAX_STEM_LENGTH = 100;
const MAX_EXT_LENGTH = 16;

// ---------------------------------------------------------------------------------------------- handler

interface Mount extends UploadOptions {
  /** `path` as a prefix: `''` for the root mount. */
  prefix: string;
}

export function createUploadHandler(options: UploadOptions[], ctx: SiteContext): Handler {
  const mounts: Mount[] = options
    .map((o) => ({ ...o, prefix: o.path === '/' ? '' : o.path }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return async (req, res, next) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(req.path);
    } catch {
      if (!mounts.some((m) => req.path === m.path || req.path.startsWith(`${m.prefix}/`))) return next();
      return sendText(res, 400, 'Bad Request');
    }
    try {
      for (const mount of mounts) {
        if (req.method === 'POST' && (pathname === mount.path || pathname === `${mount.prefix}/`)) {
          return await receive(mount, req, res, ctx);
        }
        if ((req.method === 'GET' || req.method === 'HEAD') && pathname.startsWith(`${mount.prefix}/`)) {
          if (await sendStored(mount, pathname.slice(mount.prefix.length + 1), req, res)) return;
        }
      }
    } catch (err) {
      ctx.warn(`upload: ${describe(err)}`);
      return sendText(res, 500, 'Internal Server Error');
    }
    return next();
  };
}

/** Streams `<dir>/<name>` when `name` is a plain stored file name; false when there is no such file. */
async function sendStored(mount: Mount, name: string, req: Request, res: Response): Promise<boolean> {
  // Saved names never contain these; temporary `.upload-*.part` files start with a dot.
  if (name === '' || name.startsWith('.') || /[/\\\0]/.test(name) || name.includes('..')) return false;
  const file = join(mount.dir, name);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return false;
  res.statusCode = 200;
  res.setHeader('Content-Type', lookup(name) ?? 'application/octet-stream');
  res.setHeader('Content-Length', info.size);
  res.setHeader('Last-Modified', info.mtime.toUTCString());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (req.method === 'HEAD') res.end();
  else pipeline(createReadStream(file), res, () => {});
  return true;
}

// ---------------------------------------------------------------------------------------------- receiving

interface Stored {
  file: string;
  originalName: string;
  size: number;
  temp: string;
  target: string;
  out: WriteStream;
  source: NodeJS.ReadableStream;
  closed: Promise<void>;
}

interface Failure {
  status: number;
  message: string;
}

async function receive(mount: Mount, req: Request, res: Response, ctx: SiteContext): Promise<void> {
  const bodyDone = new Promise<void>((done) => {
    if (req.readableEnded) return done();
    req.once('end', done);
    req.once('close', done);
  });
  // An early answer: the connection closes gracefully after it (the rest of the body is dropped).
  const reject = (status: number, message: string): void => {
    sendJson(res, status, { error: message }, closeAfterAnswer(req));
  };
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
    return reject(400, 'expected a multipart/form-data body');
  }
  try {
    await mkdir(mount.dir, { recursive: true });
  } catch (err) {
    ctx.warn(`upload: cannot create ${mount.dir}: ${describe(err)}`);
    return reject(500, 'upload directory unavailable');
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // busboy flags a file that *reaches* its limit; one byte more makes "limit" mean "larger than the maximum".
      limits: {
        fileSize: mount.maxFileSize === null ? undefined : mount.maxFileSize + 1,
        files: mount.maxFiles ?? undefined,
      },
    });
  } catch (err) {
    return reject(400, `malformed multipart request: ${describe(err)}`);
  }

  const stored: Stored[] = [];
  let failure: Failure | undefined;
  let concluding = false;

  const fail = (status: number, message: string): void => {
    if (failure) return;
    failure = { status, message };
    req.unpipe(parser);
    for (const entry of stored) {
      entry.source.unpipe();
      entry.source.resume();
      entry.out.destroy();
    }
    settle();
  };

  const settle = (): void => {
    conclude().catch((err) => {
      ctx.warn(`upload: ${describe(err)}`);
      sendJson(res, 500, { error: 'internal error' });
    });
  };
  // Runs once, when the body is parsed or the request failed; answers exactly once.
  const conclude = async (): Promise<void> => {
    if (concluding) return;
    concluding = true;
    // A refusal is answered at once; a success once the body is all read.
    if (!failure) await bodyDone;
    await Promise.all(stored.map((entry) => entry.closed));
    if (!failure && stored.length === 0) failure = { status: 400, message: 'no file in the request' };
    if (!failure) {
      try {
        for (const entry of stored) await rename(entry.temp, entry.target);
      } catch (err) {
        ctx.warn(`upload: cannot store a file: ${describe(err)}`);
        failure = { status: 500, message: 'could not store the upload' };
      }
    }
    if (failure) {
      await Promise.all(stored.flatMap((e) => [e.temp, e.target]).map((f) => unlink(f).catch(() => {})));
      return reject(failure.status, failure.message);
    }
    const files = stored.map(({ file, size, originalName }) => ({ file, size, originalName }));
    sendJson(res, 200, { files });
  };

  parser.on('file', (field, source, info) => {
    // busboy destroys an unfinished part with an error when the body ends early, also a part parsed after a
    // refusal (the last bytes of a head come only when the body ends): heard here, or it would end the process.
    source.on('error', (err) => fail(400, `malformed multipart body: ${describe(err)}`));
    const originalName = info.filename ?? '';
    // A part without a file name is an empty file input of a browser form, not a file.
    if (failure || info.filename === undefined) return source.resume();
    if (mount.fieldName !== null && field !== mount.fieldName) {
      source.resume();
      return fail(400, `files are accepted only in field "${mount.fieldName}" (got "${field}")`);
    }
    if (mount.allowedTypes && !typeAllowed(mount.allowedTypes, info.mimeType)) {
      source.resume();
      return fail(400, `file type ${info.mimeType} is not allowed`);
    }
    const file = savedName(originalName);
    const temp = join(mount.dir, `.upload-${randomBytes(8).toString('hex')}.part`);
    const out = createWriteStream(temp, { flags: 'wx' });
    const closed = new Promise<void>((done) => out.once('close', done));
    const entry: Stored = { file, originalName, size: 0, temp, target: join(mount.dir, file), out, source, closed };
    stored.push(entry);
    source.on('data', (chunk: Buffer) => {
      entry.size += chunk.length;
    });
    source.once('limit', () => fail(413, `file "${originalName}" is larger than ${mount.maxFileSize} bytes`));
    out.on('error', (err) => {
      ctx.warn(`upload: cannot write ${temp}: ${describe(err)}`);
      fail(500, 'could not store the upload');
    });
    source.pipe(out);
  });
  parser.once('filesLimit', () => fail(400, `too many files (at most ${mount.maxFiles})`));
  parser.on('error', (err) => fail(400, `malformed multipart body: ${describe(err)}`));
  parser.once('close', () => settle());
  // A client that goes away mid-upload leaves nothing behind.
  res.once('close', () => {
    if (!res.writableFinished) fail(400, 'client disconnected');
  });
  req.pipe(parser);
}

function typeAllowed(allowed: string[], mimeType: string): boolean {
  const type = mimeType.toLowerCase();
  return allowed.some((a) => a === type || a === '*/*' || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/**
 * `<sanitised stem>-<Date.now()>-<8 hex>.<ext>`: only letters, digits, `-`, `_` and single dots, never a
 * leading dot, so no name can climb out of the directory or hide, whatever the client sent.
 */
export function savedName(original: string, now = Date.now(), random = randomBytes(4).toString('hex')): string {
  const base = original.slice(Math.max(original.lastIndexOf('/'), original.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  const hasExt = dot > 0 && dot < base.length - 1;
  const ext = hasExt ? base.slice(dot + 1).replace(/[^A-Za-z0-9]/g, '').slice(0, MAX_EXT_LENGTH) : '';
  const stem =
    (hasExt ? base.slice(0, dot) : base)
      .replace(/[^A-Za-z0-9._-]/gu, '_')
      .replace(/\.{2,}/g, '.')
      .replace(/^\.+/, '')
      .slice(0, MAX_STEM_LENGTH) || 'file';
  return `${stem}-${now}-${random}${ext ? `.${ext}` : ''}`;
}

