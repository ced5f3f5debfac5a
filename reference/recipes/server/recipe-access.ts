// Who may see and change a recipe (catalog recipes/recipes/public-readable-without-auth, private-access,
// ownership, list-visibility, recipes/saved/semantics). Reading: a public recipe is anyone's; a private one only
// its owner's and an admin's, and anyone else is told it does not exist (404). Changing (PATCH, DELETE, photos):
// the owner or an admin; another user gets 403 for a public recipe (it can be read, so its existence is no secret)
// and 404 for a private one. Every decision reads the stored user and recipe.
import type { IncomingMessage } from 'node:http';
import type { DeepReadonly, Recipe, User } from '../store/index.ts';
import { ApiError, toApiError } from './api-error.ts';
import { authenticate } from './bearer-auth.ts';
import type { ServerContext } from './server-context.ts';

export const RECIPE_NOT_FOUND = 'Recipe not found';
export const NOT_OWNER = 'Not the owner of this recipe';

type Viewer = DeepReadonly<User> | null;

/**
 * The caller of a route open to everyone: the user of a valid bearer token, else null. A token that is not
 * accepted (expired, tampered, of a deleted user) counts as none: the route answers what it answers anonymously.
 */
export async function optionalUser(ctx: ServerContext, req: IncomingMessage): Promise<Viewer> {
  if (!req.headers.authorization) return null;
  try {
    return await authenticate(ctx, req);
  } catch (error) {
    if (toApiError(error).error.status === 401) return null;
    throw error;
  }
}

/** The stored recipe with that id (own keys only: an id like "constructor" is unknown, not Object's). */
export function storedRecipe(ctx: ServerContext, id: string): DeepReadonly<Recipe> | undefined {
  const { recipes } = ctx.store.data;
  return Object.hasOwn(recipes, id) ? recipes[id] : undefined;
}

const isAdmin = (user: Viewer) => user?.role === 'admin';

/** Whether `viewer` may read the recipe alone (GET /api/recipes/:id). */
export function canRead(recipe: DeepReadonly<Recipe>, viewer: Viewer): boolean {
  return recipe.isPublic || (viewer !== null && (viewer.id === recipe.ownerId || isAdmin(viewer)));
}

/** Whether the recipe is one of `viewer`'s lists: own or public, whatever the role (lists, tags, favorites). */
export function inListsOf(recipe: DeepReadonly<Recipe>, viewer: Viewer): boolean {
  return recipe.isPublic || (viewer !== null && viewer.id === recipe.ownerId);
}

/** The recipe `viewer` may read, or 404. */
export function readableRecipe(ctx: ServerContext, id: string, viewer: Viewer): DeepReadonly<Recipe> {
  const recipe = storedRecipe(ctx, id);
  if (recipe === undefined || !canRead(recipe, viewer)) throw new ApiError(404, RECIPE_NOT_FOUND);
  return recipe;
}

/** The recipe `user` may change, or 404 (unknown, or private and not theirs) or 403 (public and not theirs). */
export function ownedRecipe(ctx: ServerContext, id: string, user: DeepReadonly<User>): DeepReadonly<Recipe> {
  const recipe = readableRecipe(ctx, id, user);
  if (recipe.ownerId !== user.id && !isAdmin(user)) throw new ApiError(403, NOT_OWNER);
  return recipe;
}
