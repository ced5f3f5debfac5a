// numeric-ids: the variant numbers its recipes 1, 2, 3… where the reference gives them UUIDs. The numbers are
// kept in a file beside the data file, so a restart finds the same recipes under the same numbers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Kind } from './variant-recipes-design.ts';

export class RecipeNumbers {
  readonly #byId = new Map<string, number>();
  readonly #byNumber = new Map<number, string>();
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
    if (!existsSync(file)) return;
    for (const [id, n] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>)) this.#keep(id, n);
  }

  #keep(id: string, n: number): void {
    this.#byId.set(id, n);
    this.#byNumber.set(n, id);
  }

  /** The number of the reference's recipe `id`, given now when it has none. */
  numberOf(id: string): number {
    let n = this.#byId.get(id);
    if (n === undefined) {
      n = this.#byId.size + 1;
      this.#keep(id, n);
      writeFileSync(this.#file, JSON.stringify(Object.fromEntries(this.#byId)));
    }
    return n;
  }

  /** A path of the variant's with a recipe number in the reference's terms (an unknown number stays: the
   * reference finds no such recipe). */
  referencePath(path: string): string {
    const found = /^\/api\/recipes\/(\d+)(\/.*)?$/.exec(path);
    const id = found ? this.#byNumber.get(Number(found[1])) : undefined;
    return id === undefined ? path : `/api/recipes/${id}${found![2] ?? ''}`;
  }

  /** A reference answer of `kind` with its recipes' ids as numbers. */
  numbered(kind: Kind, body: unknown): unknown {
    const number = (r: unknown) => (typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string' ? { ...r, id: this.numberOf((r as { id: string }).id) } : r);
    if (kind === 'recipe' || kind === 'recipe-change' || kind === 'photo') return number(body);
    if (kind === 'list' && typeof body === 'object' && body !== null && Array.isArray((body as { items?: unknown }).items)) {
      // Newest first as the reference lists them; recipes of the same instant by their numbers (as text).
      const items = (body as { items: unknown[] }).items.map(number) as { id: number; createdAt?: string }[];
      const at = (r: { createdAt?: string }) => String(r.createdAt);
      items.sort((a, b) => (at(a) === at(b) ? (String(a.id) < String(b.id) ? -1 : 1) : at(a) < at(b) ? 1 : -1));
      return { ...body, items };
    }
    return body;
  }
}
