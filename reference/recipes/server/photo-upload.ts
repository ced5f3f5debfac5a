// Receiving one photo from a multipart/form-data request (catalog recipes/recipe-photos/upload-format, limits):
// busboy reads the body as it arrives; the file must be in the field `photo`; its type is judged from its first
// bytes (JPEG, PNG, WebP, GIF magic numbers), never from the declared Content-Type or file name; it is written to
// the uploads folder under a new random name as it streams, and a file past the size limit stops the read (413).
// Whatever goes wrong, nothing is left in the folder.
import { mkdir, open, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { ApiError } from './api-error.ts';
import { newUploadName, type PhotoExtension } from './uploads-files.ts';

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** Room for the multipart framing and a few small text fields beside the photo. */
const FRAMING_BYTES = 64 * 1024;
/** Bytes read before the type is judged (WebP needs 12). */
const SNIFF_BYTES = 12;

export interface ReceivedPhoto {
  /** The new file's name in the uploads folder. */
  readonly name: string;
  readonly size: number;
}

/** The image type of a file from its first bytes, or null when it is none of the accepted ones. */
export function sniffImage(head: Uint8Array): PhotoExtension | null {
  const starts = (bytes: readonly number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'jpg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'gif'; // GIF87a, GIF89a
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp'; // RIFF….WEBP
  return null;
}

const tooLarge = (maxBytes: number) => new ApiError(413, `Photo larger than ${maxBytes} bytes`);
const notAnImage = () => new ApiError(415, 'The photo must be a JPEG, PNG, WebP or GIF image');
const noPhoto = () => new ApiError(400, 'A photo is required: multipart/form-data with the image in the field "photo"');

/** Writes the file part to a new file of the folder, judging its type from its first bytes. */
async function writePhoto(file: Readable, dir: string, maxBytes: number): Promise<ReceivedPhoto> {
  file.once('limit', () => file.destroy(tooLarge(maxBytes)));
  const head: Buffer[] = [];
  let size = 0;
  let name: string | undefined;
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  const start = async () => {
    const extension = sniffImage(Buffer.concat(head));
    if (extension === null) throw notAnImage();
    name = newUploadName(extension);
    // Made at start (main.ts); made again if it went away since, rather than failing every upload.
    await mkdir(dir, { recursive: true });
    handle = await open(join(dir, name), 'wx', 0o644);
    for (const chunk of head.splice(0)) await handle.writeFile(chunk);
  };
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (handle) await handle.writeFile(chunk);
      else {
        head.push(chunk);
        if (size >= SNIFF_BYTES) await start();
      }
    }
    if (size === 0) throw new ApiError(400, 'The photo is empty');
    if (!handle) await start();
    await handle!.sync();
    return { name: name!, size };
  } catch (error) {
    file.resume();
    if (name !== undefined) await unlink(join(dir, name)).catch(() => {});
    throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * The photo of the request, written to `dir`; an ApiError otherwise: 400 (not multipart, no file in `photo`, more
 * than one file, an empty file, a malformed body), 413 (over `maxBytes`, declared or while reading), 415 (not an
 * accepted image). On an error the rest of the body is left to the answer, which reads and drops it (sendError).
 */
export function receivePhoto(req: IncomingMessage, dir: string, maxBytes = MAX_PHOTO_BYTES): Promise<ReceivedPhoto> {
  if (!/^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '')) return Promise.reject(noPhoto());
  if (Number(req.headers['content-length']) > maxBytes + FRAMING_BYTES) return Promise.reject(tooLarge(maxBytes));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // One byte more than allowed: busboy marks a file that reaches its limit as cut off.
      limits: { fileSize: maxBytes + 1, files: 1, fields: 20, fieldSize: 1024, parts: 30, headerPairs: 20 },
    });
  } catch {
    return Promise.reject(noPhoto());
  }
  return new Promise<ReceivedPhoto>((resolve, reject) => {
    let settled = false;
    let photoPart: Readable | undefined;
    let received: Promise<ReceivedPhoto> | undefined;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // The file being written stops (writePhoto removes it); one already written goes too: the request is
      // refused as a whole, and the refusal is answered only once the folder is as it was.
      photoPart?.destroy(error instanceof Error ? error : new Error(String(error)));
      const removed = received?.then((photo) => unlink(join(dir, photo.name)), () => {}).catch(() => {});
      void (removed ?? Promise.resolve()).then(() => reject(error));
    };
    parser.on('file', (field, file) => {
      // A part's errors are the body's (a cut or malformed form), reported through the parser's 'error' event;
      // without a listener of its own, a part the server is not reading would throw them (parts already
      // parsed from the body can still come after a refusal).
      file.on('error', () => {});
      if (settled || field !== 'photo') {
        file.resume();
        fail(new ApiError(400, `Unexpected file in the field "${field}": the photo goes in the field "photo"`));
        return;
      }
      photoPart = file;
      received = writePhoto(file, dir, maxBytes);
      received.catch(fail);
    });
    parser.on('filesLimit', () => fail(new ApiError(400, 'One photo per request')));
    parser.on('partsLimit', () => fail(new ApiError(400, 'Too many parts in the multipart body')));
    parser.on('fieldsLimit', () => fail(new ApiError(400, 'Too many fields in the multipart body')));
    parser.on('error', () => fail(new ApiError(400, 'Malformed multipart/form-data body')));
    parser.on('close', () => {
      if (!received) fail(noPhoto());
      else
        received.then((photo) => {
          if (settled) return;
          settled = true;
          resolve(photo);
        }, fail);
    });
    req.on('error', fail);
    // The client went away mid-body: nothing more will come.
    req.on('close', () => {
      if (!req.complete) fail(new ApiError(400, 'The upload was interrupted'));
    });
    req.pipe(parser);
  });
}
