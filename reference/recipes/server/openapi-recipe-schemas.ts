// The recipe bodies of the OpenAPI document (catalog recipes/recipes/payload, update-semantics, servings-scaling,
// recipe-photos/*, import/request-and-result, list-query/*, categories/*), with the bounds the routes check:
// RECIPE_LIMITS of recipe-fields.ts, LIST_DEFAULTS of recipe-list.ts, the photo limit and types, the categories.
import { CATEGORIES } from './categories.ts';
import { arrayOf, dateTime, integer, type JsonObject, nullable, object, ref, string } from './openapi-json-schema.ts';
import { MAX_PHOTO_BYTES } from './photo-upload.ts';
import { RECIPE_LIMITS as L } from './recipe-fields.ts';
import { LIST_DEFAULTS } from './recipe-list.ts';
import { PHOTO_TYPES } from './uploads-files.ts';

const slug = { enum: CATEGORIES.map((category) => category.slug) };
export const PHOTO_MEDIA_TYPES = Object.values(PHOTO_TYPES).join(', ');
const photoSize = `${MAX_PHOTO_BYTES / (1024 * 1024)} MiB`;

const minutes = nullable(integer(0, L.maxMinutes));
const title = string({ minLength: 1, maxLength: L.titleChars, description: 'One line; trimmed.' });
const newIngredient = object(
  {
    name: string({ minLength: 1, maxLength: L.ingredientNameChars }),
    quantity: nullable({ type: 'number', minimum: 0, maximum: L.maxQuantity }),
    unit: nullable(string({ maxLength: L.unitChars })),
  },
  ['name'],
);

/** The fields of POST and PATCH /api/recipes; null clears an optional one. Other keys are ignored. */
const recipeFields: JsonObject = {
  title,
  description: nullable(string({ maxLength: L.descriptionChars })),
  servings: nullable(integer(1, L.maxServings, { default: 1 })),
  prepMinutes: minutes,
  cookMinutes: minutes,
  ingredients: arrayOf(newIngredient, { maxItems: L.ingredients }),
  steps: arrayOf(
    object(
      {
        order: nullable(integer(1, L.maxStepOrder, { description: 'Unique in the recipe; default: the 1-based position.' })),
        text: string({ minLength: 1, maxLength: L.stepChars }),
      },
      ['text'],
    ),
    { maxItems: L.steps, description: 'Answered sorted by order.' },
  ),
  tags: arrayOf(string({ maxLength: L.tagChars }), { description: `Trimmed and lower-cased; empty ones dropped; at most ${L.tags} distinct.` }),
  category: nullable({ ...slug, description: 'A category slug (GET /api/categories).' }),
  isPublic: { type: 'boolean', default: false },
  sourceUrl: nullable(string({ format: 'uri', maxLength: L.urlChars, description: 'An http(s) URL; "" clears it.' })),
};

const photoUrl = nullable(string({ description: 'Where the photo is served: /uploads/<name>.' }));

export const recipeSchemas: JsonObject = {
  NewRecipe: object(recipeFields, ['title']),
  RecipeChange: { ...object(recipeFields, []), description: 'Partial: the keys present replace (arrays as a whole); steps whose order stays keep their photos.' },
  Recipe: object({
    id: string({ format: 'uuid' }),
    ownerId: string({ format: 'uuid' }),
    title: string(),
    description: string(),
    servings: integer(1, undefined, { description: 'The servings asked for with ?servings=, else the stored ones.' }),
    prepMinutes: nullable(integer(0)),
    cookMinutes: nullable(integer(0)),
    ingredients: arrayOf(object({ name: string(), quantity: nullable({ type: 'number', description: 'Scaled with ?servings=.' }), unit: nullable(string()) })),
    steps: arrayOf(object({ order: integer(1), text: string(), photoUrl })),
    tags: arrayOf(string()),
    category: nullable(slug),
    isPublic: { type: 'boolean' },
    sourceUrl: nullable(string({ format: 'uri' })),
    photoUrl,
    saved: { type: 'boolean', description: "In the caller's favorites (false without a token)." },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  RecipePage: object({
    items: arrayOf(ref('Recipe')),
    page: integer(1),
    limit: integer(1, LIST_DEFAULTS.maxLimit),
    total: integer(0, undefined, { description: 'Matches across all pages.' }),
    totalPages: integer(0),
  }),
  ImportRequest: object({ url: string({ format: 'uri', description: 'An http(s) page.' }) }),
  RecipeDraft: {
    ...object({
      title,
      description: nullable(string()),
      servings: nullable(integer(1, L.maxServings)),
      prepMinutes: minutes,
      cookMinutes: minutes,
      ingredients: arrayOf(object({ name: string(), quantity: { type: 'number' }, unit: string() }, ['name'])),
      steps: arrayOf(object({ order: integer(1), text: string() })),
      tags: arrayOf(string()),
      category: nullable(slug),
      sourceUrl: string({ format: 'uri', description: 'The page, after redirects.' }),
      imageUrl: nullable(string({ format: 'uri' })),
    }),
    description: 'Not saved: POST it to /api/recipes as it is.',
  },
  Category: object({ id: string({ format: 'uuid' }), slug, name: string() }),
  PhotoUpload: object({ photo: string({ format: 'binary', description: `JPEG, PNG, WebP or GIF (judged from the bytes), at most ${photoSize}.` }) }),
};

const query = (name: string, schema: JsonObject, description: string): JsonObject => ({ name, in: 'query', required: false, description, schema });
const flag = { enum: ['true', '1', 'false', '0'] };

export const recipeParameters: JsonObject = {
  RecipeId: { name: 'id', in: 'path', required: true, description: "The recipe's id.", schema: string() },
  StepOrder: { name: 'order', in: 'path', required: true, description: "The step's order value.", schema: integer(1, L.maxStepOrder) },
  Q: query('q', string({ maxLength: LIST_DEFAULTS.maxQueryChars }), 'Text searched in title, description, ingredient names and tags (case-insensitive).'),
  Tag: query('tag', string(), 'Only recipes with this tag (case-insensitive).'),
  Category: query('category', string(), 'Only recipes of this category slug.'),
  Mine: query('mine', flag, "true or 1: only the caller's own recipes."),
  Saved: query('saved', flag, "true or 1: only the caller's favorites."),
  Page: query('page', integer(1, undefined, { default: LIST_DEFAULTS.page }), '1-based page; past the end: no items.'),
  Limit: query('limit', integer(1, undefined, { default: LIST_DEFAULTS.limit }), `Page size; above ${LIST_DEFAULTS.maxLimit} counts as ${LIST_DEFAULTS.maxLimit}.`),
  Servings: query('servings', integer(1, L.maxServings), 'Scale the ingredient quantities to this many servings.'),
  PhotoName: { name: 'name', in: 'path', required: true, description: 'The file name of a photoUrl.', schema: string() },
};

export const PHOTO_LIMIT_TEXT = photoSize;
