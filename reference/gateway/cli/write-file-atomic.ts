// Replaces a file's content so that a reader sees the old or the new text, never a part: write a temporary
// file beside it, then rename over it. A symbolic link is followed (its target is replaced, the link kept),
// and the file keeps its permission bits.
import { randomBytes } from 'node:crypto';
import { chmodSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function writeFileAtomic(path: string, text: string): void {
  let target = path;
  let mode: number | undefined;
  try {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o7777;
  } catch {
    // A new file: written where it is named, with the mode the umask gives.
  }
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
    // Set after writing: the mode given to open() would be narrowed by the umask.
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, target);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Never created, or already renamed.
    }
    throw error;
  }
}
