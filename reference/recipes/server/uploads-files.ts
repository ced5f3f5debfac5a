// The photo files of the uploads folder (catalog recipes/recipe-photos/stored-as-files, serving,
// recipes/config/uploads-directory): names the server generates (32 random hex digits and the image's extension),
// their URL path, and GET /uploads/<name> without authentication. Only a name of that form is ever
// opened, so no path from a request reaches the file system (no traversal, no dot files, no partial writes).
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ApiError } from './api-error.ts';

export const UPLOADS_PATH = '/uploads';

/** The image types accepted, by the extension their files get. */
export const PHOTO_TYPES = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' } as const;
export type PhotoExtension = keyof typeof PHOTO_TYPES;

const UPLOAD_NAME = /^[0-9a-f]{32}\.(jpg|png|webp|gif)$/;

export function newUploadName(extension: PhotoExtension): string {
  return `${randomBytes(16).toString('hex')}.${extension}`;
}

/** The path a stored photo is served at (photoUrl), or null. */
export function photoUrl(name: string | null): string | null {
  return name === null ? null : `${UPLOADS_PATH}/${name}`;
}

const notFound = () => new ApiError(404, 'File not found');

/** GET (and HEAD) /uploads/<name>: the file with its image type; 404 for any other name or a missing file. */
export async function serveUpload(dir: string, name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const match = UPLOAD_NAME.exec(name);
  if (!match) throw notFound();
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(join(dir, name), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound();
    throw error;
  }
  try {
    const { size } = await handle.stat();
    res.writeHead(200, {
      'Content-Type': PHOTO_TYPES[match[1] as PhotoExtension],
      'Content-Length': size,
      // A name is never reused: a new photo gets a new name.
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // A client that goes away mid-file is not a fault of ours: the answer is over either way.
    await pipeline(handle.createReadStream({ autoClose: false }), res).catch(() => res.destroy());
  } finally {
    await handle.close();
  }
}
