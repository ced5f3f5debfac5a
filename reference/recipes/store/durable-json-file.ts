// lowdb's Adapter for one JSON file, with durable writes: a write resolves only when the new bytes are on disk
// and the file names it. Protocol: write the bytes to a temporary file beside the data file, fsync it, rename it
// over the data file, fsync the folder (the rename itself is only durable once the folder is). A crash at any
// point leaves the old file or the new one, whole; a temporary file left by a crash is removed at the next start.
//
// Reading refuses a file that is not a JSON object, naming the file: the store never starts empty over data it
// could not read, and never writes over it.
import { type FileHandle, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { StoreError, describeSystemError } from './store-error.ts';

/** The steps of one write, in order; a trace receives each once it is done. */
export type WriteStep = 'write-temp' | 'sync-temp' | 'rename' | 'sync-folder';

export type WriteTrace = (step: WriteStep, path: string) => void;

/** The temporary file of a data file: hidden, beside it (a rename only stays within one file system). */
export function tempFileOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.tmp`);
}

/** fsync of a folder: makes the names it holds (a rename, a new file) durable. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function corrupt(file: string, reason: string, cause?: unknown): StoreError {
  return new StoreError(
    'corrupt',
    file,
    `${file}: ${reason}; the store does not start over a file it cannot read and does not overwrite it: ` +
      'restore it from a backup, or move it away to start empty',
    { cause },
  );
}

/** The document in a file's bytes, or a `corrupt` StoreError naming the file. */
export function parseDocument(file: string, bytes: Uint8Array): object {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw corrupt(file, 'the file is not valid UTF-8', error);
  }
  if (text.trim() === '') throw corrupt(file, 'the file is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `the file is not valid JSON (${(error as Error).message})`, error);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw corrupt(file, `the file holds ${Array.isArray(value) ? 'an array' : String(value)}, not a JSON object`);
  }
  return value;
}

export class DurableJsonFile<T extends object> implements Adapter<T> {
  readonly file: string;
  readonly tempFile: string;
  readonly #serialize: (data: T) => Uint8Array;
  readonly #trace: WriteTrace | undefined;
  #writes = 0;

  constructor(file: string, serialize: (data: T) => Uint8Array, trace?: WriteTrace) {
    this.file = file;
    this.tempFile = tempFileOf(file);
    this.#serialize = serialize;
    this.#trace = trace;
  }

  /** The number of writes that reached the disk. */
  get writes(): number {
    return this.#writes;
  }

  /** The document, or null when the file does not exist. */
  async read(): Promise<T | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreError('io', this.file, `${this.file}: cannot read the store: ${describeSystemError(error)}`, {
        cause: error,
      });
    }
    return parseDocument(this.file, bytes) as T;
  }

  /** Serialises `data` before it returns (the caller may change `data` as soon as it has), then writes the bytes
   * durably. lowdb's `Low.write()` calls it synchronously, so the same holds for `low.write()`. */
  write(data: T): Promise<void> {
    return this.#writeBytes(this.#serialize(data));
  }

  async #writeBytes(bytes: Uint8Array): Promise<void> {
    const { file, tempFile } = this;
    let step: WriteStep = 'write-temp';
    let handle: FileHandle | undefined;
    try {
      // 0o600: the document holds password hashes and the SMTP password.
      handle = await open(tempFile, 'w', 0o600);
      await handle.writeFile(bytes);
      this.#trace?.(step, tempFile);
      step = 'sync-temp';
      await handle.datasync();
      this.#trace?.(step, tempFile);
      await handle.close();
      handle = undefined;
      step = 'rename';
      await rename(tempFile, file);
      this.#trace?.(step, file);
      step = 'sync-folder';
      await syncFolder(dirname(file));
      this.#trace?.(step, dirname(file));
      this.#writes++;
    } catch (error) {
      await handle?.close().catch(() => {});
      await rm(tempFile, { force: true }).catch(() => {});
      throw new StoreError('io', file, `${file}: cannot write the store (${step}): ${describeSystemError(error)}`, {
        cause: error,
      });
    }
  }
}
