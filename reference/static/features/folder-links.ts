// Symbolic links that lead out of a served folder are not followed: the file behind such a link is served as
// if it did not exist, like a CGI script outside its folder. Links that stay inside are followed.
// Production: sirv indexes the folder once at start-up, so the links are found once, by a walk that visits
// what sirv's index does; a folder without such links costs nothing per request. The same walk finds what
// would stop sirv's index (a dangling link, a loop of links), so such a folder is served from disk instead of
// failing the start. Development: sirv reads the disk per request, so the file it would pick is resolved per
// request.
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/** Suffixes sirv tries for a path, in its order (`toAssume` in sirv, with its default html/htm extensions). */
const EXTENSIONS = ['', '.html', '.htm'];

/** The names (below the folder, with a leading slash) sirv tries for `uri`, first match served. */
export function sirvCandidates(uri: string): string[] {
  const base = uri.endsWith('/') ? uri.slice(0, -1) : uri;
  const out: string[] = [];
  for (const ext of EXTENSIONS) {
    if (base) out.push(base + ext);
    out.push(`${base}/index${ext}`);
  }
  return out;
}

/** Whether `real` (a real path) is `realDir` or below it. */
export function isBelow(realDir: string, real: string): boolean {
  const rel = relative(realDir, real);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** A folder whose real path is looked up once, when first needed. */
export interface RealFolder {
  dir: string;
  realDir?: string | undefined;
}

/** Whether `file`, symlinks followed, lies in `folder` (false when either cannot be resolved). */
export async function insideFolder(folder: RealFolder, file: string): Promise<boolean> {
  try {
    folder.realDir ??= await realpath(folder.dir);
    return isBelow(folder.realDir, await realpath(file));
  } catch {
    return false;
  }
}

/** The links of a production folder, found at start-up. */
export interface LinkIndex {
  /** Whether the file sirv picks for `uri` is reached through a link that leads out of the folder. */
  refuses(uri: string): boolean;
}

export interface FolderScan {
  /** Every file the walk found (with a leading slash, links followed). */
  files: Set<string>;
  /** The links out of the folder (null: none, the common case, with no check per request). */
  links: LinkIndex | null;
  /** What sirv's start-up index cannot take, or null: it stops at a dangling link, a loop of links or an
   * unreadable entry (it stats every entry, links followed). */
  unindexable: string | null;
}

/** A production folder walked as sirv's index walks it, before sirv does. */
export function scanFolder(dir: string): FolderScan {
  const realDir = realpathSync(dir);
  const walk: Walk = { realDir, files: new Set(), outside: new Set(), ancestors: new Set([realDir]), unindexable: null };
  visit(walk, dir, realDir, '', false);
  const { files, outside } = walk;
  const links: LinkIndex | null =
    outside.size === 0
      ? null
      : {
          refuses(uri) {
            for (const name of sirvCandidates(uri)) {
              if (outside.has(name)) return true;
              if (files.has(name)) return false;
            }
            return false;
          },
        };
  return { files, links, unindexable: walk.unindexable };
}

interface Walk {
  realDir: string;
  /** Every file name (with a leading slash), as sirv keys its index. */
  files: Set<string>;
  /** Those reached through a link out of the folder. */
  outside: Set<string>;
  /** Real paths of the folders being visited (a link to one of them is a loop). */
  ancestors: Set<string>;
  unindexable: string | null;
}

/** Visits `abs` (real path `realAbs`) and what it holds, links followed, noting what sirv's index could not. */
function visit(w: Walk, abs: string, realAbs: string, name: string, out: boolean): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch (err) {
    w.unindexable ??= `${abs}: ${(err as Error).message}`;
    return;
  }
  for (const entry of entries) {
    const childAbs = join(abs, entry.name);
    const childName = `${name}/${entry.name}`;
    let childOut = out;
    let real = join(realAbs, entry.name);
    let isDir = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        real = realpathSync(childAbs);
        isDir = statSync(childAbs).isDirectory();
      } catch (err) {
        w.unindexable ??= `${childAbs}: ${(err as Error).message}`;
        continue;
      }
      childOut ||= !isBelow(w.realDir, real);
    }
    if (!isDir) {
      w.files.add(childName);
      if (childOut) w.outside.add(childName);
    } else if (w.ancestors.has(real)) {
      w.unindexable ??= `${childAbs}: a link to a folder that holds it`;
    } else {
      w.ancestors.add(real);
      visit(w, childAbs, real, childName, childOut);
      w.ancestors.delete(real);
    }
  }
}
