// How much one user may keep (catalog recipes/limits/recipe-bytes, user-quota, list-answer-size): a recipe's fields
// at most RECIPE_MAX_BYTES of JSON (413), and per owner at most `recipes` recipes and `bytes` bytes of them (403).
// Every write rewrites the whole data file, so one user's bulk slowed everyone's writes, and a list page of 100
// recipes could be tens of megabytes; with these bounds a page of 100 is at most about 7 MB.
//
// The size of a recipe is the UTF-8 length of the JSON of its fields in the create shape (what the client sent,
// normalised: no id, owner, dates or photos). A user's usage is counted from the committed records (sizes cached
// per record and version) plus the writes in flight (reserved before the write, released once it settled), so
// concurrent requests cannot pass the quota together. A change that does not grow a recipe is never refused.
import type { DeepReadonly, Recipe, RecipesStore } from '../store/index.ts';
import { ApiError } from './api-error.ts';
import type { RecipeFields } from './recipe-fields.ts';

export const RECIPE_MAX_BYTES = 64 * 1024;

export interface QuotaLimits {
  /** Recipes per owner. */
  readonly recipes: number;
  /** Bytes of recipe fields (JSON, UTF-8) per owner. */
  readonly bytes: number;
}

export const DEFAULT_QUOTA: QuotaLimits = { recipes: 1000, bytes: 8 * 1024 * 1024 };

interface Usage {
  count: number;
  bytes: number;
}

/** Bytes of `fields` as JSON, or a 413 naming the size and the bound. */
export function checkedRecipeBytes(fields: RecipeFields): number {
  const bytes = Buffer.byteLength(JSON.stringify(fields));
  if (bytes > RECIPE_MAX_BYTES) {
    throw new ApiError(413, `Recipe too large: its fields take ${bytes} bytes of JSON, at most ${RECIPE_MAX_BYTES} bytes per recipe`);
  }
  return bytes;
}

export class RecipeQuota {
  readonly #store: RecipesStore;
  readonly #limits: QuotaLimits;
  readonly #fieldsOf: (recipe: DeepReadonly<Recipe>) => RecipeFields;
  /** Size of each stored record, for the version (updatedAt) it was measured at. */
  readonly #sizes = new WeakMap<object, { updatedAt: string; bytes: number }>();
  readonly #inFlight = new Map<string, Usage>();

  constructor(store: RecipesStore, limits: QuotaLimits, fieldsOf: (recipe: DeepReadonly<Recipe>) => RecipeFields) {
    this.#store = store;
    this.#limits = limits;
    this.#fieldsOf = fieldsOf;
  }

  /** The size of a stored recipe's fields. */
  bytesOf(recipe: DeepReadonly<Recipe>): number {
    const known = this.#sizes.get(recipe);
    if (known?.updatedAt === recipe.updatedAt) return known.bytes;
    const bytes = Buffer.byteLength(JSON.stringify(this.#fieldsOf(recipe)));
    this.#sizes.set(recipe, { updatedAt: recipe.updatedAt, bytes });
    return bytes;
  }

  /**
   * Reserves `add` (recipes, bytes) for `owner`, or a 403 when it would pass the quota (only what grows is
   * checked). Call the returned function once the write settled.
   */
  reserve(owner: string, add: Usage): () => void {
    if (add.count > 0 || add.bytes > 0) {
      const used = this.#usage(owner);
      if (add.count > 0 && used.count + add.count > this.#limits.recipes) {
        throw new ApiError(403, `Recipe quota reached: at most ${this.#limits.recipes} recipes per user; delete some to add more`);
      }
      if (add.bytes > 0 && used.bytes + add.bytes > this.#limits.bytes) {
        throw new ApiError(
          403,
          `Recipe quota reached: at most ${this.#limits.bytes} bytes of recipes per user (${used.bytes} in use, this needs ${add.bytes} more); delete or shorten some`,
        );
      }
    }
    // Only growth is held: a shrink counts once it is on disk.
    const held = { count: Math.max(0, add.count), bytes: Math.max(0, add.bytes) };
    const flight = this.#inFlight.get(owner) ?? { count: 0, bytes: 0 };
    flight.count += held.count;
    flight.bytes += held.bytes;
    this.#inFlight.set(owner, flight);
    return () => {
      flight.count -= held.count;
      flight.bytes -= held.bytes;
      if (flight.count === 0 && flight.bytes === 0 && this.#inFlight.get(owner) === flight) this.#inFlight.delete(owner);
    };
  }

  /** What `owner` keeps on disk, plus their writes in flight (a write just committed may count twice: never less). */
  #usage(owner: string): Usage {
    const usage = { ...(this.#inFlight.get(owner) ?? { count: 0, bytes: 0 }) };
    for (const recipe of Object.values(this.#store.data.recipes)) {
      if (recipe.ownerId !== owner) continue;
      usage.count++;
      usage.bytes += this.bytesOf(recipe);
    }
    return usage;
  }
}
