// One process owns a data file: it holds `<file>.lock`, a file beside it naming the owner as JSON
// `{"pid": …, "start": …}` (`start`: the process's start time from /proc, so a pid reused by another process
// is not taken for the owner). The lock file is created whole or not at all: written under a unique name, then
// hard-linked to its name, which fails when it exists.
//
// A lock whose owner is not running (it was killed, or the machine restarted) is stale: the next process takes
// it over and logs it. Two processes taking over the same stale lock at once are told apart: each moves the
// lock aside under its own name first, and only the one that moved the lock it judged stale goes on. A lock
// that cannot be parsed is stale too (it can only be left so by a crash of the machine before the lock's data
// reached the disk).
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { StoreError, describeSystemError } from './store-error.ts';

interface Owner {
  pid: number;
  start?: string;
}

const ATTEMPTS = 5;

/** Data files this process holds, so opening one twice in the same process is refused too. */
const held = new Set<string>();
/** Locks to remove when the process exits without closing its stores (one listener for all). */
const live = new Set<FileLock>();
let exitListener = false;

/** The start time of a process (clock ticks since boot, /proc/<pid>/stat field 22), where /proc exists. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: count fields after its closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function parseOwner(text: string): Owner | undefined {
  try {
    const value = JSON.parse(text) as Partial<Owner>;
    if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    return { pid: value.pid as number, ...(typeof value.start === 'string' ? { start: value.start } : {}) };
  } catch {
    return undefined;
  }
}

function isRunning(owner: Owner): boolean {
  // Our own pid, not held by this process: left by an earlier process that had the same pid (a container
  // restarted with its volume).
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = owner.start === undefined ? undefined : processStart(owner.pid);
  return start === undefined || start === owner.start;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export class FileLock {
  readonly path: string;
  readonly #file: string;
  readonly #content: string;
  #released = false;

  constructor(file: string, path: string, content: string) {
    this.#file = file;
    this.path = path;
    this.#content = content;
    live.add(this);
    if (!exitListener) {
      exitListener = true;
      process.on('exit', () => {
        for (const lock of live) lock.release();
      });
    }
  }

  /** Removes the lock file if it is still ours. Synchronous, so it also runs when the process exits. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    held.delete(this.#file);
    live.delete(this);
    try {
      if (readText(this.path) === this.#content) rmSync(this.path, { force: true });
    } catch {
      // Nothing to do: a lock left behind is stale once this process has ended.
    }
  }
}

/** Takes `<file>.lock` for this process, or throws a `locked` StoreError naming the owner. */
export function acquireLock(file: string, log: (line: string) => void): FileLock {
  const path = `${file}.lock`;
  if (held.has(file)) throw new StoreError('locked', file, `${file}: the store is already open in this process`);
  const start = processStart(process.pid);
  const content = `${JSON.stringify({ pid: process.pid, ...(start === undefined ? {} : { start }) })}\n`;
  let takenFrom: string | undefined;
  const io = (what: string, error: unknown) =>
    new StoreError('io', file, `${file}: cannot ${what} the lock file ${path}: ${describeSystemError(error)}`, {
      cause: error,
    });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const unique = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      writeFileSync(unique, content, { flag: 'wx' });
      linkSync(unique, path);
      held.add(file);
      if (takenFrom !== undefined) log(`${file}: took over the stale lock ${path} of ${takenFrom}`);
      return new FileLock(file, path, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw io('create', error);
    } finally {
      rmSync(unique, { force: true });
    }
    // The lock exists: is its owner running?
    let text: string | undefined;
    try {
      text = readText(path);
    } catch (error) {
      throw io('read', error);
    }
    if (text === undefined) continue;
    const owner = parseOwner(text);
    if (owner && isRunning(owner)) {
      throw new StoreError(
        'locked',
        file,
        `${file}: the store is in use by process ${owner.pid} (lock file ${path}); one process owns the file`,
      );
    }
    // Stale: move it aside, and go on only if what was moved is the lock judged stale.
    const aside = `${path}.${process.pid}.stale`;
    try {
      renameSync(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw io('take over', error);
    }
    let judged = false;
    try {
      judged = readText(aside) === text;
      // Another process took the lock over in between: put its lock back (the next attempt refuses).
      if (!judged) linkSync(aside, path);
    } catch {
      // A third process holds the name now; it owns the file.
    } finally {
      rmSync(aside, { force: true });
    }
    if (judged) takenFrom = owner ? `process ${owner.pid}, which is not running` : 'an unreadable owner';
  }
  throw new StoreError('locked', file, `${file}: the lock file ${path} keeps changing; another process is starting`);
}
