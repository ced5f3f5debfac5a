// A JSON document kept in memory and in one file, owned by one process, changed through `update(fn)`: the
// promise resolves once the change is on disk. One lowdb `Low` holds the document; its adapter writes durably.
//
// Group commit: changes are applied and written in groups. While a write is in flight, the update functions
// that arrive wait; when it ends, they run one after the other on the document and go out together in one file
// write, and each caller's promise settles when that write does. Readers (`data`) see only what is on disk:
// a group's changes are serialised, taken back while the file is written, and put again once it is on disk (or
// dropped if the write failed, which rejects every caller of the group and leaves memory as the disk has it).
import { mkdir, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Low } from 'lowdb';
import { ChangeRecorder } from './change-recorder.ts';
import { DocumentSerializer } from './document-serializer.ts';
import { DurableJsonFile, syncFolder, type WriteTrace } from './durable-json-file.ts';
import { acquireLock, type FileLock } from './file-lock.ts';
import { StoreError, describeSystemError } from './store-error.ts';

export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

export interface StoreOptions<T extends object> {
  /** The data file; a relative path resolves against the working directory. Its folder is created. */
  file: string;
  /** A new empty document: used when the file does not exist, and for top-level keys the file lacks. */
  empty: () => T;
  /** Where the store's log lines go (a stale lock taken over); default: stderr. */
  log?: (line: string) => void;
  /** Told of each step of each file write (tests). */
  trace?: WriteTrace;
}

export interface StoreStats {
  /** File writes done. */
  writes: number;
  /** Updates acknowledged (their promise resolved). */
  acknowledged: number;
}

/** An update function: changes the document it is given, synchronously; its result is the update's result. */
export type Updater<T, R> = (draft: T) => R;

interface Pending<T> {
  fn: Updater<T, unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && 'then' in value;
}

/** Creates `folder` and its missing parents, and makes their names durable. */
async function ensureFolder(folder: string): Promise<void> {
  const first = await mkdir(folder, { recursive: true });
  if (first === undefined) return;
  for (let created = folder; ; created = dirname(created)) {
    await syncFolder(dirname(created));
    if (created === first) break;
  }
}

export class DurableStore<T extends object> {
  readonly file: string;
  readonly #low: Low<T>;
  readonly #adapter: DurableJsonFile<T>;
  readonly #serializer: DocumentSerializer;
  readonly #recorder: ChangeRecorder<T>;
  readonly #lock: FileLock;
  #queue: Pending<T>[] = [];
  #running = false;
  #idle: (() => void)[] = [];
  #closed = false;
  #acknowledged = 0;

  /** Use `openStore`. */
  constructor(low: Low<T>, adapter: DurableJsonFile<T>, serializer: DocumentSerializer, lock: FileLock) {
    this.file = adapter.file;
    this.#low = low;
    this.#adapter = adapter;
    this.#serializer = serializer;
    this.#recorder = new ChangeRecorder(low.data);
    this.#lock = lock;
  }

  /** The document as it is on disk. Read-only: change it through `update`. */
  get data(): DeepReadonly<T> {
    return this.#low.data as DeepReadonly<T>;
  }

  get stats(): StoreStats {
    return { writes: this.#adapter.writes, acknowledged: this.#acknowledged };
  }

  /**
   * Runs `fn` on the document (after every update asked before it) and resolves with its result once the change
   * is on disk. `fn` must be synchronous. If it throws, its changes are taken back and the promise rejects with
   * its error; if the write fails, the promise rejects with a StoreError (code `io`). An assigned object is
   * stored as a copy of its JSON form.
   */
  update<R>(fn: Updater<T, R>): Promise<R> {
    if (this.#closed) {
      return Promise.reject(new StoreError('closed', this.file, `${this.file}: the store is closed`));
    }
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running) {
        this.#running = true;
        // On a microtask: updates asked in the same turn go out in one write.
        queueMicrotask(() => void this.#drain());
      }
    });
  }

  /** Takes no more updates, waits for those asked to be written, and releases the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#running) await new Promise<void>((resolve) => this.#idle.push(resolve));
    this.#lock.release();
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const group = this.#queue;
      this.#queue = [];
      try {
        await this.#commit(group);
      } catch (error) {
        // Not expected (#commit settles every caller itself); never leave a caller waiting. Settled ones stay so.
        for (const pending of group) pending.reject(error);
      }
    }
    this.#running = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #commit(group: Pending<T>[]): Promise<void> {
    const recorder = this.#recorder;
    recorder.clear();
    const applied: { pending: Pending<T>; result: unknown }[] = [];
    for (const pending of group) {
      const mark = recorder.size;
      try {
        const result = recorder.run(pending.fn);
        if (isThenable(result)) {
          Promise.resolve(result).catch(() => {});
          throw new TypeError('update() takes a synchronous function: its changes must be made before it returns');
        }
        applied.push({ pending, result });
      } catch (error) {
        recorder.undoTo(mark);
        pending.reject(error);
      }
    }
    if (recorder.size > 0) {
      const touched = recorder.touched;
      this.#serializer.invalidate(touched);
      // Serialises the document now (see DurableJsonFile.write); then readers get the disk's state back while
      // the file is written.
      const written = this.#low.write();
      recorder.undoAll();
      try {
        await written;
      } catch (error) {
        this.#serializer.invalidate(touched);
        for (const { pending } of applied) pending.reject(error);
        return;
      }
      recorder.redoAll();
    }
    this.#acknowledged += applied.length;
    for (const { pending, result } of applied) pending.resolve(result);
  }
}

/**
 * Opens the store: takes the file's lock (a `locked` StoreError if another process holds it), removes a temporary
 * file left by a crash, reads the document (a `corrupt` StoreError if the file cannot be read as one) or, when the
 * file does not exist, writes a new empty one.
 */
export async function openStore<T extends object>(options: StoreOptions<T>): Promise<DurableStore<T>> {
  const given = resolve(options.file);
  const log = options.log ?? ((line: string) => console.error(line));
  let file: string;
  try {
    await ensureFolder(dirname(given));
    // One name per file, whatever links lead to it: the lock is beside that name, and a rename replaces the file,
    // not a link to it.
    file = await realpath(given).catch(async () => join(await realpath(dirname(given)), basename(given)));
  } catch (error) {
    throw new StoreError('io', given, `${given}: cannot create its folder: ${describeSystemError(error)}`, {
      cause: error,
    });
  }
  const lock = acquireLock(file, log);
  try {
    const serializer = new DocumentSerializer();
    const adapter = new DurableJsonFile<T>(file, (data) => serializer.serialize(data), options.trace);
    await rm(adapter.tempFile, { force: true }).catch((error: unknown) => {
      throw new StoreError('io', file, `${file}: cannot remove ${adapter.tempFile}: ${describeSystemError(error)}`, {
        cause: error,
      });
    });
    const empty = options.empty();
    const low = new Low<T>(adapter, empty);
    await low.read();
    if (low.data === empty) {
      // No file: the new document is written now, so a folder the store cannot write to fails at start.
      await low.write();
    } else {
      const defaults = options.empty() as Record<string, unknown>;
      const data = low.data as Record<string, unknown>;
      for (const key of Object.keys(defaults)) if (!Object.hasOwn(data, key)) data[key] = defaults[key];
    }
    return new DurableStore(low, adapter, serializer, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}
