// The recipe routes' writes to the store, each one `store.update` (synchronous, checked again inside against the
// state it applies to), followed by what must happen once it is on disk: the list order moved along, and photo
// files that no record names any more removed (catalog recipes/recipes/update-semantics, delete-semantics,
// recipe-photos/upload-format, saved/semantics, admin-users/deleted-user-content).
import { randomUUID } from 'node:crypto';
import type { DeepReadonly, Recipe, RecipesData, User } from '../store/index.ts';
import { ApiError } from './api-error.ts';
import { inListsOf, RECIPE_NOT_FOUND } from './recipe-access.ts';
import type { RecipeFields } from './recipe-fields.ts';
import type { RecipeOrder } from './recipe-list.ts';
import { checkedRecipeBytes, RecipeQuota } from './recipe-quota.ts';
import type { ServerContext } from './server-context.ts';
import { removeUploadedFiles } from './uploaded-files.ts';

export const STEP_NOT_FOUND = 'Step not found';

/** An ISO time later than `previous` (so every change has a new updatedAt, even within one millisecond). */
function laterThan(previous: string): string {
  const now = Date.now();
  const last = Date.parse(previous);
  return new Date(now > last ? now : last + 1).toISOString();
}

function draftRecipe(draft: RecipesData, id: string): Recipe {
  if (!Object.hasOwn(draft.recipes, id)) throw new ApiError(404, RECIPE_NOT_FOUND);
  return draft.recipes[id]!;
}

/** The names among `photos` (steps and recipes without a photo have null). */
const named = (photos: readonly (string | null)[]) => photos.filter((name): name is string => name !== null);

export class RecipeWrites {
  readonly #ctx: ServerContext;
  readonly #order: RecipeOrder;
  readonly #quota: RecipeQuota;

  constructor(ctx: ServerContext, order: RecipeOrder) {
    this.#ctx = ctx;
    this.#order = order;
    this.#quota = new RecipeQuota(ctx.store, ctx.quota, fieldsOf);
  }

  /** A 413 for a recipe over the size bound, a 403 over the owner's quota (recipe-quota.ts). */
  async create(owner: DeepReadonly<User>, fields: RecipeFields): Promise<DeepReadonly<Recipe>> {
    const release = this.#quota.reserve(owner.id, { count: 1, bytes: checkedRecipeBytes(fields) });
    const now = new Date().toISOString();
    const id = randomUUID();
    const recipe: Recipe = { id, ownerId: owner.id, ...storedFields(fields), photo: null, createdAt: now, updatedAt: now };
    try {
      await this.#ctx.store.update((draft) => {
        draft.recipes[id] = recipe;
      });
    } finally {
      release();
    }
    const stored = this.#ctx.store.data.recipes[id]!;
    this.#order.noteWrite({ added: stored });
    return stored;
  }

  /**
   * Applies the fields present; steps whose order survives keep their photos, the others' files are removed. A
   * 413 when the result is over the size bound, a 403 when its growth passes the owner's quota.
   */
  async change(id: string, change: Partial<RecipeFields>): Promise<void> {
    const { recipes } = this.#ctx.store.data;
    if (!Object.hasOwn(recipes, id)) throw new ApiError(404, RECIPE_NOT_FOUND);
    const current = recipes[id]!;
    const growth = checkedRecipeBytes({ ...fieldsOf(current), ...change }) - this.#quota.bytesOf(current);
    const release = this.#quota.reserve(current.ownerId, { count: 0, bytes: growth });
    try {
      await this.#changeStored(id, change);
    } finally {
      release();
    }
  }

  async #changeStored(id: string, change: Partial<RecipeFields>): Promise<void> {
    const dropped = await this.#ctx.store.update((draft) => {
      const recipe = draftRecipe(draft, id);
      const merged = { ...fieldsOf(recipe), ...change };
      // Again against the record the write applies to (another change may have come first).
      checkedRecipeBytes(merged);
      const stored = storedFields(merged);
      const photos = new Map(recipe.steps.map((step) => [step.order, step.photo]));
      const kept = stored.steps.map((step) => ({ ...step, photo: photos.get(step.order) ?? null }));
      const gone = recipe.steps.filter((step) => !stored.steps.some((s) => s.order === step.order)).map((step) => step.photo);
      Object.assign(recipe, { ...stored, steps: kept, updatedAt: laterThan(recipe.updatedAt) });
      return gone;
    });
    this.#order.noteWrite();
    await removeUploadedFiles(this.#ctx, named(dropped));
  }

  /** Deletes the recipe, every favorite pointing at it, then its photo files. */
  async remove(id: string): Promise<void> {
    const photos = await this.#ctx.store.update((draft) => {
      const recipe = draftRecipe(draft, id);
      const files = [recipe.photo, ...recipe.steps.map((step) => step.photo)];
      delete draft.recipes[id];
      for (const favorites of Object.values(draft.saved)) if (Object.hasOwn(favorites, id)) delete favorites[id];
      return files;
    });
    this.#order.noteWrite({ removed: id });
    await removeUploadedFiles(this.#ctx, named(photos));
  }

  /**
   * Names `file` as the photo of the recipe (stepOrder null) or of its step; the previous file is removed. A 404
   * when the recipe or the step is gone by then (the new file is removed).
   */
  async setPhoto(id: string, stepOrder: number | null, file: string): Promise<void> {
    let previous: string | null;
    try {
      previous = await this.#ctx.store.update((draft) => {
        const recipe = draftRecipe(draft, id);
        const holder = stepOrder === null ? recipe : recipe.steps.find((step) => step.order === stepOrder);
        if (holder === undefined) throw new ApiError(404, STEP_NOT_FOUND);
        const old = holder.photo;
        holder.photo = file;
        recipe.updatedAt = laterThan(recipe.updatedAt);
        return old;
      });
    } catch (error) {
      await removeUploadedFiles(this.#ctx, [file]);
      throw error;
    }
    this.#order.noteWrite();
    if (previous !== null && previous !== file) await removeUploadedFiles(this.#ctx, [previous]);
  }

  /** Adds the recipe to the user's favorites (once); 404 unless it is in their lists (own or public). */
  async save(user: DeepReadonly<User>, id: string): Promise<void> {
    await this.#ctx.store.update((draft) => {
      if (!inListsOf(draftRecipe(draft, id), user)) throw new ApiError(404, RECIPE_NOT_FOUND);
      if (!Object.hasOwn(draft.saved, user.id)) draft.saved[user.id] = {};
      const favorites = draft.saved[user.id]!;
      if (!Object.hasOwn(favorites, id)) favorites[id] = new Date().toISOString();
    });
    this.#order.noteWrite();
  }

  /** Removes the recipe from the user's favorites; 404 when it is neither a favorite nor in their lists. */
  async unsave(user: DeepReadonly<User>, id: string): Promise<void> {
    await this.#ctx.store.update((draft) => {
      const favorites = Object.hasOwn(draft.saved, user.id) ? draft.saved[user.id]! : {};
      if (Object.hasOwn(favorites, id)) delete favorites[id];
      else if (!Object.hasOwn(draft.recipes, id) || !inListsOf(draft.recipes[id]!, user)) throw new ApiError(404, RECIPE_NOT_FOUND);
    });
    this.#order.noteWrite();
  }
}

/** The fields of a stored recipe, as the create shape has them (steps without their photos). */
function fieldsOf(recipe: DeepReadonly<Recipe>): RecipeFields {
  return {
    title: recipe.title,
    description: recipe.description,
    servings: recipe.servings,
    prepMinutes: recipe.prepMinutes ?? null,
    cookMinutes: recipe.cookMinutes ?? null,
    ingredients: recipe.ingredients.map((ingredient) => ({ ...ingredient })),
    steps: recipe.steps.map((step) => ({ order: step.order, text: step.text })),
    tags: [...recipe.tags],
    category: recipe.category ?? null,
    isPublic: recipe.isPublic,
    sourceUrl: recipe.sourceUrl ?? null,
  };
}

/** The stored form of the fields: those not set are absent (undefined deletes a stored property). */
function storedFields(fields: RecipeFields): Omit<Recipe, 'id' | 'ownerId' | 'photo' | 'createdAt' | 'updatedAt'> {
  return {
    title: fields.title,
    description: fields.description,
    servings: fields.servings,
    prepMinutes: fields.prepMinutes ?? undefined,
    cookMinutes: fields.cookMinutes ?? undefined,
    ingredients: fields.ingredients,
    steps: fields.steps.map((step) => ({ order: step.order, text: step.text, photo: null })),
    tags: fields.tags,
    category: fields.category ?? undefined,
    isPublic: fields.isPublic,
    sourceUrl: fields.sourceUrl ?? undefined,
  } as Omit<Recipe, 'id' | 'ownerId' | 'photo' | 'createdAt' | 'updatedAt'>;
}
