// Test support for the offline commands: a CliIo whose output is collected, with stdin given as text, and
// fresh working folders with awkward names.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { InitIo } from './init.ts';

export interface CapturedIo extends InitIo {
  out: string[];
  err: string[];
  readonly stdoutText: string;
  readonly stderrText: string;
}

/** `stdin` undefined: an input that ends at once. */
export function captureIo(cwd: string, env: NodeJS.ProcessEnv = {}, stdin?: string): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    env,
    cwd,
    stdin: Readable.from(stdin === undefined ? [] : [stdin]),
    stdout: (text) => {
      out.push(text);
    },
    stderr: (text) => {
      err.push(text);
    },
    out,
    err,
    get stdoutText() {
      return out.join('');
    },
    get stderrText() {
      return err.join('');
    },
  };
}

/** A temporary folder `dir`; `folder()` makes a new one inside it (a space and non-ASCII in its name). */
export function scratchFolders(prefix: string): { dir: string; folder: () => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let count = 0;
  return {
    dir,
    folder: () => {
      const path = join(dir, `case ${count++} ü`);
      mkdirSync(path);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
