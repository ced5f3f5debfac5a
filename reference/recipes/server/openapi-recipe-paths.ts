// The OpenAPI paths of recipes, their photos, favorites, tags, categories and the uploaded files, as the catalog's
// reference lines describe them (recipes/recipes/*, recipe-photos/*, import/*, public/*, tags/*, saved/*,
// categories/*, list-query/*).
import type { JsonObject } from './openapi-json-schema.ts';
import { PHOTO_LIMIT_TEXT } from './openapi-recipe-schemas.ts';
import { type OperationSpec, operation } from './openapi-operations.ts';
import { DEFAULT_QUOTA, RECIPE_MAX_BYTES } from './recipe-quota.ts';

const LIST_QUERY = ['Q', 'Tag', 'Category', 'Page', 'Limit'];
const NOT_FOUND = 'No such recipe, or a private recipe of another user ("Recipe not found").';
const NOT_OWNER = 'A public recipe of another user ("Not the owner of this recipe"); nothing changed.';
const page = { status: 200, description: 'One page of the matching recipes, newest first.', schema: 'RecipePage' } as const;
const TOO_LARGE = `The body is larger than 1 MiB, or the recipe's fields would take more than ${RECIPE_MAX_BYTES} bytes of JSON ("Recipe too large").`;
const QUOTA = `The owner's quota would be passed: at most ${DEFAULT_QUOTA.recipes} recipes and ${DEFAULT_QUOTA.bytes} bytes of recipe fields per user by default (RECIPES_QUOTA_RECIPES, RECIPES_QUOTA_BYTES; "Recipe quota reached").`;

function photoUpload(id: string, summary: string, parameters: string[], notFound: string): JsonObject {
  const spec: OperationSpec = {
    id,
    writes: true,
    tag: 'photos',
    summary,
    description: 'Replaces the previous photo (its file is deleted). The type is checked from the bytes.',
    access: 'bearer',
    parameters,
    multipart: 'PhotoUpload',
    success: { status: 200, description: 'The recipe with the new photoUrl.', schema: 'Recipe' },
    errors: {
      400: 'Not multipart/form-data, no file in the field photo, more than one file, an empty file or a malformed body.',
      403: NOT_OWNER,
      404: notFound,
      413: `The photo is larger than ${PHOTO_LIMIT_TEXT}.`,
      415: 'Not a JPEG, PNG, WebP or GIF image.',
    },
  };
  return operation(spec);
}

export const recipePaths: JsonObject = {
  '/api/recipes': {
    get: operation({
      id: 'listRecipes',
      tag: 'recipes',
      summary: 'List recipes',
      description: `The caller's own recipes and every public one; all filters hold at once. At most 100 per page, each at most ${RECIPE_MAX_BYTES} bytes of fields: a page is at most about 7 MB.`,
      access: 'bearer',
      parameters: [...LIST_QUERY, 'Mine', 'Saved'],
      success: page,
      errors: { 400: 'A query value that is not accepted (page, limit, mine, saved, q), or given twice.' },
    }),
    post: operation({
      id: 'createRecipe',
      writes: true,
      tag: 'recipes',
      summary: 'Create a recipe',
      access: 'bearer',
      body: { schema: 'NewRecipe' },
      success: { status: 201, description: 'The recipe, owned by the caller.', schema: 'Recipe' },
      errors: { 403: QUOTA, 413: TOO_LARGE },
    }),
  },
  '/api/recipes/public': {
    get: operation({
      id: 'listPublicRecipes',
      tag: 'recipes',
      summary: 'List public recipes',
      access: 'public',
      parameters: LIST_QUERY,
      success: page,
      errors: { 400: 'A query value out of range.' },
    }),
  },
  '/api/recipes/tags': {
    get: operation({
      id: 'listTags',
      tag: 'recipes',
      summary: 'Every distinct tag',
      description: "Of public recipes, and of the caller's own with a token.",
      access: 'optional',
      success: { status: 200, description: 'Sorted alphabetically, each once.', schema: { type: 'array', items: { type: 'string' } } },
    }),
  },
  '/api/recipes/import-url': {
    post: operation({
      id: 'importRecipe',
      tag: 'recipes',
      summary: 'Import recipe data from a web page',
      description: 'schema.org Recipe (JSON-LD, microdata), else Open Graph / Twitter tags. Nothing is saved.',
      access: 'bearer',
      body: { schema: 'ImportRequest' },
      success: { status: 200, description: 'A draft in the create shape.', schema: 'RecipeDraft' },
      errors: {
        400: 'A missing url, or not an http(s) URL.',
        422: 'The page could not be fetched (error, status, timeout, size, not HTML) or holds no recipe.',
      },
    }),
  },
  '/api/recipes/{id}': {
    get: operation({
      id: 'getRecipe',
      tag: 'recipes',
      summary: 'Get a recipe',
      description: 'A public recipe needs no token.',
      access: 'optional',
      parameters: ['RecipeId', 'Servings'],
      success: { status: 200, description: 'The recipe (scaled to servings when asked).', schema: 'Recipe' },
      errors: { 400: 'servings is not a positive integer.', 404: NOT_FOUND },
    }),
    patch: operation({
      id: 'updateRecipe',
      writes: true,
      tag: 'recipes',
      summary: 'Update a recipe',
      description: 'Owner or admin. Steps whose order survives keep their photos.',
      access: 'bearer',
      parameters: ['RecipeId'],
      body: { schema: 'RecipeChange' },
      success: { status: 200, description: 'The recipe after the change.', schema: 'Recipe' },
      errors: { 403: `${NOT_OWNER} Or, for a change that grows the recipe: ${QUOTA}`, 404: NOT_FOUND, 413: TOO_LARGE },
    }),
    delete: operation({
      id: 'deleteRecipe',
      writes: true,
      tag: 'recipes',
      summary: 'Delete a recipe',
      description: 'Owner or admin; its photos and the favorites pointing at it go too.',
      access: 'bearer',
      parameters: ['RecipeId'],
      success: { status: 204, description: 'Deleted.' },
      errors: { 403: NOT_OWNER, 404: NOT_FOUND },
    }),
  },
  '/api/recipes/{id}/photo': {
    post: photoUpload('uploadRecipePhoto', 'Upload the main photo', ['RecipeId'], NOT_FOUND),
  },
  '/api/recipes/{id}/steps/{order}/photo': {
    post: photoUpload('uploadStepPhoto', "Upload a step's photo", ['RecipeId', 'StepOrder'], `${NOT_FOUND} Or no step of that order ("Step not found").`),
  },
  '/api/recipes/{id}/saved': {
    post: operation({
      id: 'saveRecipe',
      writes: true,
      tag: 'favorites',
      summary: 'Save to favorites',
      description: 'Idempotent.',
      access: 'bearer',
      parameters: ['RecipeId'],
      success: { status: 204, description: 'Saved.' },
      errors: { 404: 'No recipe the caller can read.' },
    }),
    delete: operation({
      id: 'unsaveRecipe',
      writes: true,
      tag: 'favorites',
      summary: 'Remove from favorites',
      description: 'Idempotent.',
      access: 'bearer',
      parameters: ['RecipeId'],
      success: { status: 204, description: 'Not in the favorites (any more).' },
      errors: { 404: 'No recipe the caller can read.' },
    }),
  },
  '/api/categories': {
    get: operation({
      id: 'listCategories',
      tag: 'categories',
      summary: 'List categories',
      access: 'bearer',
      success: { status: 200, description: 'The seeded categories, by name.', schema: { type: 'array', items: { $ref: '#/components/schemas/Category' } } },
    }),
  },
  '/uploads/{name}': {
    get: operation({
      id: 'getPhoto',
      tag: 'photos',
      summary: 'An uploaded photo (the path of a photoUrl)',
      access: 'public',
      parameters: ['PhotoName'],
      success: { status: 200, description: 'The image.', media: 'image/*', schema: { type: 'string', contentMediaType: 'image/*' } },
      errors: { 404: 'No such file.' },
    }),
  },
};
