// The harness's events file (CONFORM_EVENTS), read as it grows: the workers append whole lines (one write
// each), so what follows the last newline is a line still being written and waits for the next read.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { HarnessEvent } from '../../conformance/harness/events.ts';

export class EventLog {
  readonly #file: string;
  #offset = 0;
  #partial: Buffer = Buffer.alloc(0);

  constructor(file: string) {
    this.#file = file;
  }

  /** The events appended since the last call. */
  readNew(): HarnessEvent[] {
    let fd: number;
    try {
      fd = openSync(this.#file, 'r');
    } catch {
      return []; // no case has written anything yet
    }
    const chunks: Buffer[] = [];
    try {
      const size = fstatSync(fd).size;
      while (this.#offset < size) {
        const chunk = Buffer.alloc(Math.min(size - this.#offset, 1 << 20));
        const read = readSync(fd, chunk, 0, chunk.length, this.#offset);
        if (read === 0) break;
        chunks.push(chunk.subarray(0, read));
        this.#offset += read;
      }
    } finally {
      closeSync(fd);
    }
    // Split on the last newline byte before decoding: a line still being written may end inside a character.
    const bytes = Buffer.concat([this.#partial, ...chunks]);
    const end = bytes.lastIndexOf(0x0a);
    this.#partial = bytes.subarray(end + 1);
    return bytes
      .subarray(0, end + 1)
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as HarnessEvent);
  }
}
