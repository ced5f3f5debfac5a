// The document's JSON bytes, built from cached pieces: every entry of a top-level object (a recipe, a user…)
// keeps its JSON between writes, and runs of entries ("blocks") keep their UTF-8 bytes; only the places the
// change recorder reports are serialised and encoded again. The bytes are exactly those of
// `JSON.stringify(document)` (keys in the same order), without its cost: at 10,000 recipes (12 MB) a full
// stringify and encoding take most of a write, copying the cached blocks a few milliseconds.
//
// A block ends after an entry whose key hashes to 0 modulo the mean block size (or at a cap), so block bounds
// follow the keys, not positions: an entry added or deleted changes its own block only, not every later one.
import type { Place } from './change-recorder.ts';

/** Entries per block on average; a block never holds more than BLOCK_CAP_FACTOR times that. */
export const MEAN_BLOCK_ENTRIES = 64;
const BLOCK_CAP_FACTOR = 4;

interface Block {
  keys: string[];
  /** `"key":json` of its stored entries, comma-joined (empty when none is stored); undefined: changed since. */
  bytes: Buffer | undefined;
}

type Piece =
  /** A top-level object: each entry as `"key":json`, by key (undefined: not stored, as JSON.stringify skips it),
   * and its blocks by first key. A deleted entry or top-level key is a change the recorder reports, so the cache
   * never keeps one. */
  | { kind: 'entries'; entries: Map<string, string | undefined>; blocks: Map<string, Block>; blockOf: Map<string, Block> }
  /** Any other top-level value: its JSON bytes as a whole (undefined: not stored). */
  | { kind: 'whole'; bytes: Buffer | undefined };

const isEntries = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** FNV-1a of the key, for block bounds. */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

export class DocumentSerializer {
  readonly #mean: number;
  #pieces = new Map<string, Piece>();

  /** `meanBlockEntries`: smaller in tests, so small documents have many blocks. */
  constructor(meanBlockEntries = MEAN_BLOCK_ENTRIES) {
    this.#mean = meanBlockEntries;
  }

  /** Forgets the cached JSON of these places (their values changed, or a change of them was taken back). */
  invalidate(places: Iterable<Place>): void {
    for (const place of places) {
      if (place.top === undefined) this.#pieces.clear();
      else if (place.entry === undefined) this.#pieces.delete(place.top);
      else {
        const piece = this.#pieces.get(place.top);
        if (piece?.kind !== 'entries') {
          this.#pieces.delete(place.top);
          continue;
        }
        piece.entries.delete(place.entry);
        const block = piece.blockOf.get(place.entry);
        if (block !== undefined) block.bytes = undefined;
        piece.blockOf.delete(place.entry);
      }
    }
  }

  serialize(document: object): Buffer {
    const parts: Buffer[] = [OPEN];
    let first = true;
    for (const top of Object.keys(document)) {
      const value = (document as Record<string, unknown>)[top];
      const head = `${first ? '' : ','}${JSON.stringify(top)}:`;
      if (isEntries(value)) {
        parts.push(Buffer.from(`${head}{`));
        this.#entriesBytes(top, value, parts);
        parts.push(CLOSE);
        first = false;
        continue;
      }
      const bytes = this.#wholeBytes(top, value);
      if (bytes === undefined) continue;
      parts.push(Buffer.from(head), bytes);
      first = false;
    }
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }

  #wholeBytes(top: string, value: unknown): Buffer | undefined {
    let piece = this.#pieces.get(top);
    if (piece?.kind !== 'whole') {
      const text = JSON.stringify(value);
      piece = { kind: 'whole', bytes: text === undefined ? undefined : Buffer.from(text) };
      this.#pieces.set(top, piece);
    }
    return piece.bytes;
  }

  /** Pushes the entries' blocks (comma-separated, without the braces) onto `parts`. */
  #entriesBytes(top: string, value: Record<string, unknown>, parts: Buffer[]): void {
    let piece = this.#pieces.get(top);
    if (piece?.kind !== 'entries') {
      piece = { kind: 'entries', entries: new Map(), blocks: new Map(), blockOf: new Map() };
      this.#pieces.set(top, piece);
    }
    const blocks = new Map<string, Block>();
    const keys = Object.keys(value);
    const cap = this.#mean * BLOCK_CAP_FACTOR;
    let wrote = false;
    for (let start = 0; start < keys.length; ) {
      let end = start;
      while (end < keys.length && end - start < cap) if (keyHash(keys[end++]!) % this.#mean === 0) break;
      const block = this.#block(piece, keys, start, end, value);
      blocks.set(keys[start]!, block);
      if (block.bytes!.length > 0) {
        if (wrote) parts.push(COMMA);
        parts.push(block.bytes!);
        wrote = true;
      }
      start = end;
    }
    piece.blocks = blocks;
  }

  /** The block of keys[start, end): the cached one when it holds exactly these keys and none changed. */
  #block(piece: Extract<Piece, { kind: 'entries' }>, keys: string[], start: number, end: number, value: Record<string, unknown>): Block {
    const cached = piece.blocks.get(keys[start]!);
    if (cached?.bytes !== undefined && cached.keys.length === end - start && cached.keys.every((k, i) => k === keys[start + i])) return cached;
    const block: Block = { keys: keys.slice(start, end), bytes: undefined };
    const members: string[] = [];
    for (const key of block.keys) {
      let member = piece.entries.get(key);
      if (member === undefined && !piece.entries.has(key)) {
        const text = JSON.stringify(value[key]);
        member = text === undefined ? undefined : `${JSON.stringify(key)}:${text}`;
        piece.entries.set(key, member);
      }
      if (member !== undefined) members.push(member);
      piece.blockOf.set(key, block);
    }
    block.bytes = Buffer.from(members.join(','));
    return block;
  }
}
