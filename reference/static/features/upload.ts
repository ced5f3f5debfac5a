// Multipart uploads with busboy: POST `<path>` stores each file part in `dir` under a sanitised, unique name
// and answers JSON; GET/HEAD `<path>/<saved name>` returns a stored file. A rejected request keeps nothing.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { lookup } from 'mrmime';
import { receiveUpload } from '../../shared/multipart-upload.ts';
import type { Handler, Request, Response, SiteContext } from '../site/handler.ts';
import { describeError as describe, sendText } from '../site/send.ts';
import type { UploadOptions } from './upload-options.ts';

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
          return await receiveUpload(mount, req, res, (message) => ctx.warn(message));
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
