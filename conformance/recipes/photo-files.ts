// Photo uploads as the cases send them, and where the bytes end up. Each photo is a real PNG (1×1 pixel) with
// a text chunk of its own, so its bytes are unique and a target that checks image types from the bytes takes
// it; it goes as multipart/form-data in the target's field (shapes.photoField). "Uploaded photos are stored
// as files in an uploads directory": the target runs in a fresh working folder, so after an upload some file
// below that folder holds the photo — its bytes exactly, or the same one pixel in a PNG of the target's own
// writing (a target may drop metadata or compress the image again: the document says nothing of keeping the
// bytes).
import { randomBytes } from 'node:crypto';
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import type { HttpResponse } from '../harness/http-client.ts';
import type { RecipesApi } from './api.ts';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid 1×1 PNG whose bytes no other photo of the run has. */
export function uniquePng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const pixel = deflateSync(Buffer.from([0, ...randomBytes(3), 255]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('tEXt', Buffer.from(`Comment\0conformance ${randomBytes(12).toString('hex')}`, 'latin1')),
    chunk('IDAT', pixel),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A multipart/form-data body with one file part. */
export function multipartFile(field: string, filename: string, type: string, bytes: Uint8Array): { body: Buffer; contentType: string } {
  const boundary = `----conformance${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POSTs `bytes` as a PNG photo to `path` (the main photo or a step photo) as `token`'s user. */
export function uploadPhoto(api: RecipesApi, path: string, token: string | undefined, bytes: Uint8Array = uniquePng()): Promise<HttpResponse> {
  const { body, contentType } = multipartFile(api.shapes.photoField, 'dish.png', 'image/png', bytes);
  return api.call('POST', path, { token, raw: body, headers: { 'content-type': contentType } });
}

export const mainPhotoPath = (id: string): string => `/api/recipes/${encodeURIComponent(id)}/photo`;
export const stepPhotoPath = (id: string, order: number): string => `/api/recipes/${encodeURIComponent(id)}/steps/${order}/photo`;

const MAX_ENTRIES = 5000;
const MAX_DEPTH = 8;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The RGBA of a 1×1, 8-bit RGB or RGBA PNG (alpha 255 when it has none), or undefined for anything else. For
 * one pixel every PNG row filter leaves the bytes as they are (its neighbours are all zero). */
export function pixelOfPng(bytes: Uint8Array): string | undefined {
  const png = Buffer.from(bytes);
  if (png.length > 64 * 1024 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  let colorType = -1;
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      if (body.readUInt32BE(0) !== 1 || body.readUInt32BE(4) !== 1 || body[8] !== 8) return undefined;
      colorType = body[9]!;
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  if (colorType !== 2 && colorType !== 6) return undefined;
  try {
    const row = inflateSync(Buffer.concat(data));
    const rgb = row.subarray(1, 4).toString('hex');
    return `${rgb}${colorType === 6 ? row.subarray(4, 5).toString('hex') : 'ff'}`;
  } catch {
    return undefined;
  }
}

/** Whether the file at `path` holds the photo `bytes`: the same bytes, or a PNG of the same pixel. */
function holdsPhoto(path: string, bytes: Uint8Array, pixel: string | undefined): boolean {
  const size = statSync(path).size;
  if (size === bytes.length && readFileSync(path).equals(bytes)) return true;
  return pixel !== undefined && size <= 64 * 1024 && pixelOfPng(readFileSync(path)) === pixel;
}

/** The files below `dir` (bounded: MAX_ENTRIES entries, MAX_DEPTH levels) that hold the photo `bytes`. */
export function filesHolding(dir: string, bytes: Uint8Array): string[] {
  const found: string[] = [];
  const pixel = pixelOfPng(bytes);
  let seen = 0;
  const walk = (at: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = join(at, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
      else if (entry.isFile()) {
        try {
          if (holdsPhoto(path, bytes, pixel)) found.push(path);
        } catch {
          // gone meanwhile (a temporary file)
        }
      }
    }
  };
  walk(dir, 0);
  return found;
}

/** The files holding `bytes`, waiting up to `waitMs` for a target that writes them after answering. */
export async function filesHoldingSoon(dir: string, bytes: Uint8Array, waitMs = 1000): Promise<string[]> {
  for (const until = Date.now() + waitMs; ; ) {
    const found = filesHolding(dir, bytes);
    if (found.length > 0 || Date.now() >= until) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
