// Deleting a user account and everything that is theirs (catalog recipes/admin-users/delete, deleted-user-content,
// self-protection), in one store update so nobody sees half of it: the user, their recipes (public and private),
// every favorite pointing at those recipes, the user's own favorites, and their verification and reset tokens.
// The photo files of the removed recipes are deleted once that update is on disk: a crash in between leaves
// orphan files, never a recipe whose photo is gone. Invites the user created stay valid (an admin's invite is
// the installation's, not the admin's).
import { leavesNoActiveAdmin } from '../auth/index.ts';
import type { Recipe } from '../store/index.ts';
import { ApiError } from './api-error.ts';
import type { ServerContext } from './server-context.ts';
import { removeUploadedFiles } from './uploaded-files.ts';

export const USER_NOT_FOUND = 'User not found';
export const LAST_ADMIN = 'The change would leave no active admin';

/** The file names of a recipe's main and step photos. */
function photosOf(recipe: Readonly<Recipe>): string[] {
  const names = [recipe.photo, ...recipe.steps.map((step) => step.photo)];
  return names.filter((name): name is string => typeof name === 'string' && name !== '');
}

/** Deletes user `id` and their content: 404 for an unknown id, 409 when no active admin would remain. */
export async function deleteUser(ctx: ServerContext, id: string): Promise<void> {
  const photos = await ctx.store.update((draft) => {
    if (!Object.hasOwn(draft.users, id)) throw new ApiError(404, USER_NOT_FOUND);
    if (leavesNoActiveAdmin(Object.values(draft.users), { id, delete: true })) throw new ApiError(409, LAST_ADMIN);
    delete draft.users[id];
    const removed: string[] = [];
    const files: string[] = [];
    for (const recipe of Object.values(draft.recipes)) {
      if (recipe.ownerId !== id) continue;
      files.push(...photosOf(recipe));
      removed.push(recipe.id);
      delete draft.recipes[recipe.id];
    }
    delete draft.saved[id];
    if (removed.length > 0) {
      for (const favorites of Object.values(draft.saved)) {
        for (const recipeId of removed) if (Object.hasOwn(favorites, recipeId)) delete favorites[recipeId];
      }
    }
    for (const [hash, token] of Object.entries(draft.tokens)) if (token.userId === id) delete draft.tokens[hash];
    return files;
  });
  await removeUploadedFiles(ctx, photos);
}
