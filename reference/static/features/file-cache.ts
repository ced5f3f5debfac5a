// Small files answered from memory (production). sirv streams every file from disk: an open, a read, a close
// and a read stream per request, which is most of what a small file costs to serve. A file of up to 64 KiB is
// read on its first request and then answered from memory (32 MiB at most per process); the disk is checked
// again at most once a second (size and modification time), so an edited file is served in its new form within
// a second. The answer is sirv's own: its headers (type, length, Last-Modified), and headers set by earlier
// features win over them as in sirv. Ranges, precompressed (.gz, .br) files and anything not yet in memory are
// left to sirv.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { lookup } from 'mrmime';
import type { Request, Response } from '../site/handler.ts';
import { sirvCandidates } from './folder-links.ts';

const MAX_FILE_BYTES = 64 * 1024;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
const RECHECK_MS = 1000;
/** Names sirv leaves out of its index (a segment starting with a dot). */
const DOT_SEGMENT = /(^\.|[\\/]\.)/;
/** sirv answers these with Content-Encoding from the name: left to it. */
const PRECOMPRESSED = /\.(gz|br)$/;

let totalBytes = 0;
/** Reads under way (for tests: an answer from memory is observable only once its file is read). */
const reading = new Set<Promise<void>>();

/** Resolves once every read under way has ended. */
export async function readsSettled(): Promise<void> {
  while (reading.size > 0) await Promise.all(reading);
}

interface Entry {
  abs: string;
  /** Absent while loading, or when the file is not kept (too large, gone, over the budget). */
  body?: Buffer;
  headers?: Record<string, string | number>;
  size: number;
  mtimeMs: number;
  checkedAt: number;
}

export class FileCache {
  readonly #dir: string;
  /** Every file of the folder's start-up index, keyed as sirv keys it, and what is known of it. */
  readonly #entries = new Map<string, Entry | null>();

  /** `names`: the folder's files (leading slash, as found by the start-up walk). */
  constructor(dir: string, names: Iterable<string>) {
    this.#dir = dir;
    for (const name of names) {
      if (!DOT_SEGMENT.test(name)) this.#entries.set(name.normalize(), null);
    }
  }

  /** Answers the request from memory when the file sirv would pick for `rest` is kept; false otherwise
   * (nothing was written: sirv answers). */
  serve(rest: string, req: Request, res: Response): boolean {
    const name = this.#pick(rest);
    if (name === undefined || req.headers.range !== undefined) return false;
    const entry = this.#entries.get(name);
    if (entry === null) {
      this.#load(name);
      return false;
    }
    if (entry === undefined || entry.body === undefined) return false;
    const now = Date.now();
    if (now - entry.checkedAt > RECHECK_MS) {
      entry.checkedAt = now;
      this.#track(this.#recheck(entry));
    }
    // sirv's order: its headers, each replaced by the same header already set on the response.
    const headers = { ...entry.headers };
    for (const key in headers) {
      const set = res.getHeader(key);
      if (set) headers[key] = set as string;
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : entry.body);
    return true;
  }

  /** The first of sirv's candidates for `rest` that is in the index. */
  #pick(rest: string): string | undefined {
    if (this.#entries.has(rest)) return rest;
    for (const name of sirvCandidates(rest)) if (this.#entries.has(name)) return name;
    return undefined;
  }

  #load(name: string): void {
    const entry: Entry = { abs: join(this.#dir, name), size: 0, mtimeMs: 0, checkedAt: Date.now() };
    this.#entries.set(name, entry);
    if (PRECOMPRESSED.test(name)) return;
    this.#track(this.#read(entry));
  }

  #track(read: Promise<void>): void {
    reading.add(read);
    void read.finally(() => reading.delete(read));
  }

  /** Reads the file again if its size or modification time changed; drops it if it is gone. */
  async #recheck(entry: Entry): Promise<void> {
    try {
      const stats = await stat(entry.abs);
      if (stats.size !== entry.size || stats.mtimeMs !== entry.mtimeMs) await this.#read(entry);
    } catch {
      this.#drop(entry);
    }
  }

  /** Reads the file into `entry` when it is small enough and the budget allows; else it stays with sirv. */
  async #read(entry: Entry): Promise<void> {
    try {
      const stats = await stat(entry.abs);
      if (!stats.isFile() || stats.size > MAX_FILE_BYTES || totalBytes - (entry.body?.length ?? 0) + stats.size > MAX_TOTAL_BYTES) {
        this.#drop(entry);
        return;
      }
      const body = await readFile(entry.abs);
      // Changed while read: the next check reads it again.
      if (body.length !== stats.size) {
        this.#drop(entry);
        return;
      }
      totalBytes += body.length - (entry.body?.length ?? 0);
      Object.assign(entry, { body, size: stats.size, mtimeMs: stats.mtimeMs, headers: headersOf(entry.abs, stats.size, stats.mtime) });
    } catch {
      this.#drop(entry);
    }
  }

  #drop(entry: Entry): void {
    totalBytes -= entry.body?.length ?? 0;
    entry.body = undefined;
    entry.headers = undefined;
  }
}

/** The headers sirv sends with a file (its `toHeaders`, without the precompressed case). */
function headersOf(abs: string, size: number, mtime: Date): Record<string, string | number> {
  let type = lookup(abs) || '';
  if (type === 'text/html') type += ';charset=utf-8';
  return { 'Content-Length': size, 'Content-Type': type, 'Last-Modified': mtime.toUTCString() };
}
