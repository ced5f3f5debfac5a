// Receiving a multipart/form-data upload with busboy into a folder: each file part is written to a hidden
// temporary file and renamed to a sanitised, unique name once the whole body is read; a refused request
// (too large, too many files, a wrong field or type, a malformed or cut body) keeps nothing and is answered
// with a JSON error. Used by the static server's and the gateway's upload sections.
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type busboy from 'busboy';
import { closeAfterAnswer } from './close-after-answer.ts';
import { describeError as describe, sendJson } from './send-json.ts';

const MAX_STEM_LENGTH = 100;
const MAX_EXT_LENGTH = 16;

/** Where files go and what a request may carry. */
export interface UploadLimits {
  /** Absolute directory the files are stored in (created when missing). */
  dir: string;
  /** Largest accepted file in bytes; null = no limit. */
  maxFileSize: number | null;
  /** Most files in one request; null = no limit. */
  maxFiles: number | null;
  /** Lower-case MIME types, `type/*` wildcards allowed; null = any type. */
  allowedTypes: string[] | null;
  /** The only form field that may carry files; null = any field. */
  fieldName: string | null;
}

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

/** Answers 200 `{files: [{file, size, originalName}]}` once every file is stored, or a JSON error; `warn`
 * hears what the client is not told. */
export async function receiveUpload(mount: UploadLimits, req: IncomingMessage, res: ServerResponse, warn: (message: string) => void): Promise<void> {
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
    warn(`upload: cannot create ${mount.dir}: ${describe(err)}`);
    return reject(500, 'upload directory unavailable');
  }
  // Imported at the first upload: a server that never receives one never loads it.
  const { default: createParser } = await import('busboy');
  let parser: busboy.Busboy;
  try {
    parser = createParser({
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
      warn(`upload: ${describe(err)}`);
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
        warn(`upload: cannot store a file: ${describe(err)}`);
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
      warn(`upload: cannot write ${temp}: ${describe(err)}`);
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

