// The recipes part of the API (catalog recipes/recipes/*, recipe-photos/*, import/*, public/*, tags/*, saved/*,
// categories/*, list-query/*):
//
//   GET    /api/recipes                         bearer; the list envelope (recipe-list.ts)
//   POST   /api/recipes                         bearer; 201 <recipe>
//   GET    /api/recipes/public                  no token; public recipes only, same envelope
//   GET    /api/recipes/tags                    no token needed; distinct tags, sorted
//   POST   /api/recipes/import-url              bearer; 200 <draft in the create shape>, nothing saved
//   GET    /api/recipes/:id[?servings=N]        public recipes to anyone; private ones to the owner and admins
//   PATCH  /api/recipes/:id                     owner or admin; 200 <recipe>
//   DELETE /api/recipes/:id                     owner or admin; 204, photo files and favorites with it
//   POST   /api/recipes/:id/photo               owner or admin; multipart field photo; 200 <recipe>
//   POST   /api/recipes/:id/steps/:order/photo  the same for a step
//   POST   /api/recipes/:id/saved               bearer; 204 (own or public recipes)
//   DELETE /api/recipes/:id/saved               bearer; 204
//   GET    /api/categories                      bearer; the fixed categories
//   GET    /uploads/<name>                      no token; the photo files
//
// The literal paths are registered before /api/recipes/:id, so polka's first match is theirs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware, Polka } from 'polka';
import type { DeepReadonly, Recipe, User } from '../store/index.ts';
import { ApiError } from './api-error.ts';
import { authenticate } from './bearer-auth.ts';
import { CATEGORIES } from './categories.ts';
import { importDraft } from './import-handler.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { receivePhoto } from './photo-upload.ts';
import { optionalUser, ownedRecipe, RECIPE_NOT_FOUND, readableRecipe, storedRecipe } from './recipe-access.ts';
import { newRecipeOf, RECIPE_LIMITS, recipeChangeOf } from './recipe-fields.ts';
import { distinctTags, findRecipes, listEnvelope, listQueryOf, RecipeOrder } from './recipe-list.ts';
import { recipeView } from './recipe-view.ts';
import { RecipeWrites, STEP_NOT_FOUND } from './recipe-writes.ts';
import type { ServerContext } from './server-context.ts';
import { serveUpload, UPLOADS_PATH } from './uploads-files.ts';

type Params = { params: Record<string, string>; query: Record<string, unknown> };
type Request = IncomingMessage & Params;

/** The servings query of GET /api/recipes/:id: undefined, or a whole number of servings within the create limits. */
function servingsOf(query: Record<string, unknown>): number | undefined {
  const value = query['servings'];
  if (value === undefined) return undefined;
  const servings = typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : 0;
  if (servings < 1 || servings > RECIPE_LIMITS.maxServings) {
    const message = `must be an integer from 1 to ${RECIPE_LIMITS.maxServings}`;
    throw new ApiError(400, `servings: ${message}`, { details: [{ field: 'servings', message }] });
  }
  return servings;
}

/** The fixed paths beside /api/recipes/:id (recipes/recipes/literal-routes). */
const LITERAL_PATHS: ReadonlySet<string> = new Set(['public', 'tags', 'import-url']);

/** A route of one recipe: a fixed path is never an id, so a method it does not have finds no route (404). */
const byId =
  (handler: (req: Request, res: ServerResponse) => Promise<void>): Middleware =>
  (req, res, next) =>
    LITERAL_PATHS.has(req.params['id']!) ? next() : handler(req, res);

/** The step order of a photo path: a step of the recipe, or 404. */
function stepOrderOf(recipe: DeepReadonly<Recipe>, text: string): number {
  const order = /^\d{1,7}$/.test(text) ? Number(text) : 0;
  if (!recipe.steps.some((step) => step.order === order)) throw new ApiError(404, STEP_NOT_FOUND);
  return order;
}

export function mountRecipes(app: Polka, ctx: ServerContext): void {
  const order = new RecipeOrder(ctx.store);
  const writes = new RecipeWrites(ctx, order);
  const isSaved = (user: DeepReadonly<User> | null, id: string) => {
    const { saved } = ctx.store.data;
    return user !== null && Object.hasOwn(saved, user.id) && Object.hasOwn(saved[user.id]!, id);
  };
  /** The stored recipe as answered to `user`, or 404 if it went away meanwhile. */
  const answer = (id: string, user: DeepReadonly<User> | null) => {
    const recipe = storedRecipe(ctx, id);
    if (recipe === undefined) throw new ApiError(404, RECIPE_NOT_FOUND);
    return recipeView(recipe, isSaved(user, id));
  };

  app.get('/api/recipes', async (req: Request, res) => {
    const user = await authenticate(ctx, req);
    const query = listQueryOf(req.query, 'user');
    const { items, total } = findRecipes(ctx.store, order, query, user);
    const views = items.map((recipe) => recipeView(recipe, isSaved(user, recipe.id)));
    sendJson(res, 200, listEnvelope(views, query, total));
  });

  app.post('/api/recipes', async (req: Request, res) => {
    const user = await authenticate(ctx, req);
    const fields = newRecipeOf(await readJsonObject(req, ctx.jsonLimit));
    const recipe = await writes.create(user, fields);
    sendJson(res, 201, recipeView(recipe, false));
  });

  // Literal paths first: they are never a recipe id (recipes/recipes/literal-routes).
  app.get('/api/recipes/public', (req: Request, res) => {
    // Any token is ignored: the public list is the same for everyone (saved is false).
    const query = listQueryOf(req.query, 'public');
    const { items, total } = findRecipes(ctx.store, order, query, null);
    sendJson(res, 200, listEnvelope(items.map((recipe) => recipeView(recipe, false)), query, total));
  });

  app.get('/api/recipes/tags', async (req: Request, res) => {
    sendJson(res, 200, distinctTags(ctx.store, await optionalUser(ctx, req)));
  });

  app.post('/api/recipes/import-url', async (req: Request, res) => {
    await authenticate(ctx, req);
    const body = await readJsonObject(req, ctx.jsonLimit);
    sendJson(res, 200, await importDraft(ctx, body['url']));
  });

  app.get('/api/recipes/:id', byId(async (req, res) => {
    const user = await optionalUser(ctx, req);
    const recipe = readableRecipe(ctx, req.params['id']!, user);
    sendJson(res, 200, recipeView(recipe, isSaved(user, recipe.id), servingsOf(req.query)));
  }));

  app.patch('/api/recipes/:id', byId(async (req, res) => {
    const user = await authenticate(ctx, req);
    const { id } = ownedRecipe(ctx, req.params['id']!, user);
    const change = recipeChangeOf(await readJsonObject(req, ctx.jsonLimit));
    await writes.change(id, change);
    sendJson(res, 200, answer(id, user));
  }));

  app.delete('/api/recipes/:id', byId(async (req, res) => {
    const user = await authenticate(ctx, req);
    const { id } = ownedRecipe(ctx, req.params['id']!, user);
    await writes.remove(id);
    res.writeHead(204).end();
  }));

  app.post('/api/recipes/:id/photo', byId(async (req, res) => {
    const user = await authenticate(ctx, req);
    const { id } = ownedRecipe(ctx, req.params['id']!, user);
    const photo = await receivePhoto(req, ctx.uploadsDir);
    await writes.setPhoto(id, null, photo.name);
    sendJson(res, 200, answer(id, user));
  }));

  app.post('/api/recipes/:id/steps/:order/photo', byId(async (req, res) => {
    const user = await authenticate(ctx, req);
    const recipe = ownedRecipe(ctx, req.params['id']!, user);
    const step = stepOrderOf(recipe, req.params['order']!);
    const photo = await receivePhoto(req, ctx.uploadsDir);
    await writes.setPhoto(recipe.id, step, photo.name);
    sendJson(res, 200, answer(recipe.id, user));
  }));

  app.post('/api/recipes/:id/saved', byId(async (req, res) => {
    const user = await authenticate(ctx, req);
    await writes.save(user, req.params['id']!);
    res.writeHead(204).end();
  }));

  app.delete('/api/recipes/:id/saved', byId(async (req, res) => {
    const user = await authenticate(ctx, req);
    await writes.unsave(user, req.params['id']!);
    res.writeHead(204).end();
  }));

  app.get('/api/categories', async (req: Request, res) => {
    await authenticate(ctx, req);
    sendJson(res, 200, CATEGORIES);
  });

  app.get(`${UPLOADS_PATH}/:name`, (req: Request, res) => serveUpload(ctx.uploadsDir, req.params['name']!, req, res));
}
