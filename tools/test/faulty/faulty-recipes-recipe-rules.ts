// The faulty recipe manager's rules for recipes, photos, import, the public list, tags, favorites, categories
// and the list query: each breaks the rule its fault names (faulty-recipes-faults.ts).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Recipe } from '../../../reference/recipes/store/index.ts';
import { type Faulty, Faulty as F, notFound, objectsIn, type Rule } from './faulty-recipes-helpers.ts';

const LITERAL = '(?:public|tags|import-url)';
const ONE_RECIPE = new RegExp(`^/api/recipes/(?!${LITERAL}$)[^/]+$`);
const LISTS = /^\/api\/recipes(?:\/public)?$/;
const CREATE_OR_UPDATE = new RegExp(`^/api/recipes(?:/(?!${LITERAL}$)[^/]+)?$`);
const SAVED = /^\/api\/recipes\/[^/]+\/saved$/;
const PHOTO = /^\/api\/recipes\/[^/]+\/(?:steps\/[^/]+\/)?photo$/;
const IMAGE_TYPES: Readonly<Record<string, string>> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif' };

/** The recipe id in /api/recipes/:id… */
const recipeId = (x: { path: string }) => decodeURIComponent(x.path.split('/')[3] ?? '');

/** A rule dropping query parameter `name` from the recipe lists. */
function ignoreParam(fault: Rule['fault'], name: string): Rule {
  return {
    fault,
    method: 'GET',
    path: LISTS,
    request: (x) => {
      x.query.delete(name);
      return undefined;
    },
  };
}

/** A rule dropping field `name` from the recipes sent to create or update. */
function ignoreField(fault: Rule['fault'], name: string): Rule {
  return {
    fault,
    path: CREATE_OR_UPDATE,
    body: true,
    request: (x) => {
      const body = F.jsonBody(x);
      if ((x.method === 'POST' || x.method === 'PATCH') && body !== undefined && name in body) {
        delete body[name];
        F.setJsonBody(x, body);
      }
      return undefined;
    },
  };
}

/** The recipe objects of an answer: those with the id of a stored recipe. */
function recipesIn(f: Faulty, json: unknown): Record<string, unknown>[] {
  return [...objectsIn(json)].filter((o) => (typeof o['id'] === 'string' && f.data.recipes[o['id']] !== undefined) || Array.isArray(o['steps']));
}

export function recipeRules(f: Faulty): Rule[] {
  const { store, uploadsDir } = f.ctx;
  const rules: Rule[] = [
    ignoreField('ingredients-dropped', 'ingredients'),
    ignoreField('is-public-ignored', 'isPublic'),
    {
      fault: 'steps-reversed',
      path: /^\/api\/recipes/,
      answer: (json) => {
        for (const recipe of recipesIn(f, json)) {
          const steps = recipe['steps'] as { order?: number; text?: unknown }[];
          if (!Array.isArray(steps)) continue;
          const texts = steps.map((s) => s.text).reverse();
          steps.forEach((s, i) => {
            s.text = texts[i];
          });
        }
        return json;
      },
    },
    {
      fault: 'list-open',
      method: 'GET',
      path: /^\/api\/recipes$/,
      request: (x) => {
        if (x.headers.authorization === undefined) x.path = '/api/recipes/public';
        return undefined;
      },
    },
    {
      fault: 'create-anonymous',
      method: 'POST',
      path: /^\/api\/recipes$/,
      request: async (x) => {
        const admin = f.admin();
        if (x.headers.authorization === undefined && admin !== undefined) await f.actAs(x, admin);
        return undefined;
      },
    },
    {
      fault: 'public-needs-token',
      method: 'GET',
      path: ONE_RECIPE,
      request: (x) => (x.headers.authorization === undefined ? { status: 401, json: { error: 'Authentication required' } } : undefined),
    },
    {
      fault: 'public-hidden-from-admins',
      method: 'GET',
      path: ONE_RECIPE,
      request: async (x) => {
        const recipe = f.data.recipes[recipeId(x)];
        const caller = await f.caller(x.headers);
        return recipe?.isPublic && caller?.role === 'admin' && caller.id !== recipe.ownerId ? notFound('Recipe not found') : undefined;
      },
    },
    {
      // Read as its owner, whoever asks.
      fault: 'private-readable',
      method: 'GET',
      path: ONE_RECIPE,
      request: async (x) => {
        const recipe = f.data.recipes[recipeId(x)];
        const owner = recipe && f.data.users[recipe.ownerId];
        if (owner !== undefined && (await f.caller(x.headers))?.id !== owner.id) await f.actAs(x, owner);
        return undefined;
      },
    },
    f.undo(
      'update-noop',
      'PATCH',
      ONE_RECIPE,
      (data, x) => data.recipes[recipeId(x)],
      (draft, copy) => {
        if (copy && draft.recipes[copy.id]) draft.recipes[copy.id] = copy as Recipe;
      },
    ),
    f.undo(
      'delete-noop',
      'DELETE',
      ONE_RECIPE,
      (data, x) => {
        const recipe = data.recipes[recipeId(x)];
        return recipe && { recipe, saved: Object.entries(data.saved).filter(([, s]) => s[recipe.id] !== undefined).map(([user, s]) => [user, s[recipe.id]!]) };
      },
      (draft, copy) => {
        if (!copy) return;
        draft.recipes[copy.recipe.id] = copy.recipe as Recipe;
        for (const [user, at] of copy.saved) if (draft.users[user!]) favoritesOf(draft, user!)[copy.recipe.id] = at!;
      },
    ),
    ...['public', 'tags'].map(
      (name): Rule => ({ fault: 'literal-route-shadowed', method: 'GET', path: new RegExp(`^/api/recipes/${name}$`), request: () => notFound('Recipe not found') }),
    ),
    { fault: 'literal-route-shadowed', method: 'POST', path: /^\/api\/recipes\/import-url$/, request: () => notFound('Recipe not found') },
    { fault: 'photo-404', method: 'POST', path: /^\/api\/recipes\/[^/]+\/photo$/, request: () => notFound() },
    {
      // The photo goes to the step after the one asked for (the first after the last).
      fault: 'step-photo-wrong-step',
      method: 'POST',
      path: /^\/api\/recipes\/[^/]+\/steps\/[^/]+\/photo$/,
      request: (x) => {
        const orders = (f.data.recipes[recipeId(x)]?.steps ?? []).map((s) => s.order).sort((a, b) => a - b);
        const at = orders.indexOf(Number(x.path.split('/')[5]));
        if (at >= 0) x.path = x.path.replace(/\/steps\/[^/]+\//, `/steps/${orders[(at + 1) % orders.length]}/`);
        return undefined;
      },
    },
    {
      // After an upload, the recipe's photo files move into its record; /uploads/ answers from there.
      fault: 'photo-in-db',
      method: 'POST',
      path: PHOTO,
      answer: async (json, status, x) => {
        if (status < 200 || status >= 300) return json;
        await store.update((draft) => {
          const recipe = draft.recipes[recipeId(x)] as (Recipe & { photoData?: Record<string, string> }) | undefined;
          if (!recipe) return;
          for (const name of [recipe.photo, ...recipe.steps.map((s) => s.photo)]) {
            const file = name ? join(uploadsDir, name) : undefined;
            if (!name || !file || !existsSync(file)) continue;
            recipe.photoData ??= {};
            recipe.photoData[name] = readFileSync(file).toString('base64');
          }
        });
        const recipe = f.data.recipes[recipeId(x)] as { photoData?: Record<string, string> } | undefined;
        for (const name of Object.keys(recipe?.photoData ?? {})) rmSync(join(uploadsDir, name), { force: true });
        return json;
      },
    },
    {
      fault: 'photo-in-db',
      method: 'GET',
      path: /^\/uploads\/[^/]+$/,
      request: (x) => {
        const name = decodeURIComponent(x.path.slice('/uploads/'.length));
        for (const recipe of Object.values(f.data.recipes) as { photoData?: Record<string, string> }[]) {
          const data = recipe.photoData?.[name];
          if (data !== undefined) return { status: 200, raw: Buffer.from(data, 'base64'), type: IMAGE_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream' };
        }
        return undefined;
      },
    },
    {
      fault: 'import-empty',
      method: 'POST',
      path: /^\/api\/recipes\/import-url$/,
      answer: (json, status) => {
        if (status !== 200 || typeof json !== 'object' || json === null) return json;
        const { sourceUrl } = json as { sourceUrl?: unknown };
        return { title: '', description: '', servings: 1, ingredients: [], steps: [], tags: [], ...(sourceUrl === undefined ? {} : { sourceUrl }), imageUrl: null };
      },
    },
    {
      // Every private recipe joins the public list's first page.
      fault: 'public-list-includes-private',
      method: 'GET',
      path: /^\/api\/recipes\/public$/,
      answer: (json, status, x) => {
        const list = json as { items?: unknown[]; total?: number };
        if (status !== 200 || !Array.isArray(list.items) || (x.query.get('page') ?? '1') !== '1') return json;
        const hidden = Object.values(f.data.recipes).filter((r) => !r.isPublic);
        return { ...list, items: [...hidden.map((r) => ({ ...r, photoUrl: null })), ...list.items], ...(typeof list.total === 'number' ? { total: list.total + hidden.length } : {}) };
      },
    },
    {
      // A tag is listed once per recipe carrying it.
      fault: 'tags-duplicated',
      method: 'GET',
      path: /^\/api\/recipes\/tags$/,
      answer: (json, status) => {
        if (status !== 200 || !Array.isArray(json)) return json;
        const count = (tag: unknown) => Object.values(f.data.recipes).filter((r) => r.tags.includes(String(tag))).length;
        return json.flatMap((tag) => Array.from({ length: Math.max(1, count(tag)) }, () => tag));
      },
    },
    { fault: 'saved-open', path: SAVED, request: (x) => (x.headers.authorization === undefined ? { status: 204 } : undefined) },
    f.undo(
      'saved-noop',
      'POST',
      SAVED,
      (data, x) => [recipeId(x), data.saved],
      (draft, copy, x) => restoreSaved(draft, copy, x),
    ),
    f.undo(
      'unsave-noop',
      'DELETE',
      SAVED,
      (data, x) => [recipeId(x), data.saved],
      (draft, copy, x) => restoreSaved(draft, copy, x),
    ),
    { fault: 'categories-404', method: 'GET', path: /^\/api\/categories$/, request: () => notFound() },
    ignoreParam('q-ignored', 'q'),
    ignoreParam('tag-ignored', 'tag'),
    ignoreParam('category-ignored', 'category'),
    ignoreParam('mine-ignored', 'mine'),
    ignoreParam('limit-ignored', 'limit'),
    ignoreParam('page-repeats', 'page'),
  ];
  return rules.filter((r) => f.on(r.fault));
}

function favoritesOf(draft: { saved: Record<string, Record<string, string>> }, user: string): Record<string, string> {
  draft.saved[user] ??= {};
  return draft.saved[user];
}

/** Puts back every user's favorite of the recipe as it was before the request. */
function restoreSaved(draft: { saved: Record<string, Record<string, string>> }, copy: unknown, _x: unknown): void {
  if (!copy) return;
  const [id, before] = copy as [string, Record<string, Record<string, string>>];
  for (const [user, favorites] of Object.entries(draft.saved)) {
    const was = before[user]?.[id];
    if (was === undefined) delete favorites[id];
    else favorites[id] = was;
  }
  for (const [user, favorites] of Object.entries(before)) {
    const was = favorites[id];
    if (was !== undefined && !draft.saved[user]?.[id]) favoritesOf(draft, user)[id] = was;
  }
}
