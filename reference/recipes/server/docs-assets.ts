// The files of the API docs page (catalog recipes/docs/*), served offline: Swagger UI's own files from the
// installed swagger-ui-dist package, and the page and its start-up script, made here. Only the files listed are
// served (a name is looked up, never joined to a path). Each is read once, on its first request, and kept with
// a gzip copy; its ETag comes from the package's version, so a browser revalidates cheaply after max-age.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/** A file ready to send: its bytes, their gzip form when it is worth it, and its headers. */
export interface StaticFile {
  readonly body: Buffer;
  readonly gzipped: Buffer | undefined;
  readonly type: string;
  readonly etag: string;
  readonly cacheControl: string;
}

const TYPES = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' } as const;

/** The package's files the page loads, by the name under /api/docs/. */
export const PACKAGE_ASSETS = [
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'swagger-ui.css',
  'index.css',
  'favicon-32x32.png',
  'favicon-16x16.png',
] as const;
export type PackageAsset = (typeof PACKAGE_ASSETS)[number];

/** One day: the files change only with the package, and the ETag then changes with its version. */
export const ASSET_CACHE_CONTROL = 'public, max-age=86400';

const GZIP_MIN_BYTES = 1024;

async function ready(body: Buffer, type: string, etag: string, cacheControl: string): Promise<StaticFile> {
  const compressible = !type.startsWith('image/') && body.length >= GZIP_MIN_BYTES;
  return { body, gzipped: compressible ? await gzipAsync(body) : undefined, type, etag, cacheControl };
}

/** A file made in memory (the page, its script, the OpenAPI document): its ETag is a hash of its bytes. */
export function memoryFile(text: string, type: string, cacheControl: string): Promise<StaticFile> {
  const body = Buffer.from(text, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return ready(body, type, etag, cacheControl);
}

/** The folder and version of the installed swagger-ui-dist. */
function packageFolder(): { folder: string; version: string } {
  const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { folder: dirname(manifest), version };
}

export function isPackageAsset(name: string): name is PackageAsset {
  return (PACKAGE_ASSETS as readonly string[]).includes(name);
}

/** The package's files, each read on first use; a missing package fails at start-up, not at the first visit. */
export function packageAssets(): (name: PackageAsset) => Promise<StaticFile> {
  const { folder, version } = packageFolder();
  const loaded = new Map<PackageAsset, Promise<StaticFile>>();
  return (name) => {
    let file = loaded.get(name);
    if (file === undefined) {
      const type = TYPES[name.slice(name.lastIndexOf('.') + 1) as keyof typeof TYPES];
      file = readFile(join(folder, name)).then((body) => ready(body, type, `"swagger-ui-dist-${version}-${name}"`, ASSET_CACHE_CONTROL));
      // A failed read is not kept: the next request tries again.
      file.catch(() => loaded.delete(name));
      loaded.set(name, file);
    }
    return file;
  };
}
