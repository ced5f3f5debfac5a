// `folders`: a string, an array searched in order, or an object mapping URL mount paths to directories
// (nestable, nested keys relative to the parent mount). Flattened once into mounts, longest mount first.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { childKey, isPlainObject, show, trimSlash } from './check-values.ts';
import type { FolderMount } from './site-config.ts';

export function normalizeFolders(
  value: unknown,
  key: string,
  baseDir: string,
  warn: (message: string) => void,
): FolderMount[] {
  const mounts: FolderMount[] = [];
  collect(value, key, '/', baseDir, mounts);
  for (const mount of mounts) checkDirectory(mount, warn);
  // Array.prototype.sort is stable, so equal mounts keep the configured search order.
  return mounts.sort((a, b) => b.mount.length - a.mount.length);
}

function collect(value: unknown, key: string, mount: string, baseDir: string, out: FolderMount[]): void {
  if (typeof value === 'string') {
    if (value === '') throw new ConfigError(key, 'must be a non-empty directory path (got "")');
    out.push({ mount, dir: resolve(baseDir, value), key });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      collect(item, `${key}[${i}]`, mount, baseDir, out);
    });
    return;
  }
  if (isPlainObject(value)) {
    for (const [path, item] of Object.entries(value)) {
      collect(item, childKey(key, path), joinMount(mount, path, childKey(key, path)), baseDir, out);
    }
    return;
  }
  throw new ConfigError(key, `must be a directory string, an array or an object of mount paths (got ${show(value)})`);
}

/** `/docs` + `api` or `/api/` => `/docs/api`; a mount never ends in `/` except the root itself. */
function joinMount(parent: string, path: string, key: string): string {
  if (path.includes('\\') || path.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new ConfigError(key, `mount path may not contain ".", ".." or "\\" segments (got ${show(path)})`);
  }
  const child = trimSlash(path.startsWith('/') ? path : `/${path}`);
  if (child === '/') return parent;
  return parent === '/' ? child : parent + child;
}

/** A missing directory is only a warning (it may be built later); a file where a directory belongs is an error. */
function checkDirectory(mount: FolderMount, warn: (message: string) => void): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(mount.dir).isDirectory();
  } catch {
    warn(`${mount.key}: directory not found: ${mount.dir}`);
    return;
  }
  if (!isDirectory) throw new ConfigError(mount.key, `is not a directory: ${mount.dir}`);
}
