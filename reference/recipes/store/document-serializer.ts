// The document's JSON text, built from cached pieces: every entry of a top-level object (a recipe, a user…)
// keeps its JSON between writes, and only the places the change recorder reports are serialised again. The
// text is exactly `JSON.stringify(document)` (keys in the same order), without its cost: at 10,000 recipes a
// full stringify takes most of a write, the pieces' join a few milliseconds.
import type { Place } from './change-recorder.ts';

type Piece =
  /** A top-level object: each entry as `"key":json`, by key (undefined: not stored, as JSON.stringify skips it). A
   * deleted entry or top-level key is a change the recorder reports, so the cache never keeps one. */
  | { kind: 'entries'; entries: Map<string, string | undefined> }
  /** Any other top-level value: its JSON as a whole (undefined: not stored). */
  | { kind: 'whole'; text: string | undefined };

const isEntries = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export class DocumentSerializer {
  #pieces = new Map<string, Piece>();

  /** Forgets the cached JSON of these places (their values changed, or a change of them was taken back). */
  invalidate(places: Iterable<Place>): void {
    for (const place of places) {
      if (place.top === undefined) this.#pieces.clear();
      else if (place.entry === undefined) this.#pieces.delete(place.top);
      else {
        const piece = this.#pieces.get(place.top);
        if (piece?.kind === 'entries') piece.entries.delete(place.entry);
        else this.#pieces.delete(place.top);
      }
    }
  }

  serialize(document: object): string {
    const parts: string[] = [];
    for (const top of Object.keys(document)) {
      const text = this.#topText(top, (document as Record<string, unknown>)[top]);
      if (text !== undefined) parts.push(`${JSON.stringify(top)}:${text}`);
    }
    return `{${parts.join(',')}}`;
  }

  #topText(top: string, value: unknown): string | undefined {
    let piece = this.#pieces.get(top);
    if (!isEntries(value)) {
      if (piece?.kind !== 'whole') {
        piece = { kind: 'whole', text: JSON.stringify(value) };
        this.#pieces.set(top, piece);
      }
      return piece.text;
    }
    if (piece?.kind !== 'entries') {
      piece = { kind: 'entries', entries: new Map() };
      this.#pieces.set(top, piece);
    }
    const { entries } = piece;
    const parts: string[] = [];
    for (const key of Object.keys(value)) {
      let member = entries.get(key);
      if (member === undefined && !entries.has(key)) {
        const text = JSON.stringify(value[key]);
        member = text === undefined ? undefined : `${JSON.stringify(key)}:${text}`;
        entries.set(key, member);
      }
      if (member !== undefined) parts.push(member);
    }
    return `{${parts.join(',')}}`;
  }
}
