// The OpenAPI document's components (catalog recipes/docs/format-and-access): the JSON Schemas of the bodies the
// server reads and answers, its path parameters and its bearer scheme. Bounds come from the constants the code
// checks with, so the document cannot drift from them; the recipe bounds follow the catalog's reference lines
// (recipes/recipes/payload, recipes/limits/recipe-size, recipes/tags/normalization, recipes/list-query/*).
import { ONE_TIME_LIFETIMES_MS, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, ROLES } from '../auth/index.ts';
import { EMAIL_MAX_CHARS, NAME_MAX_CHARS } from './account-fields.ts';
import { PACKAGE_ASSETS } from './docs-assets.ts';
import { DOCS_INIT_SCRIPT } from './docs-page.ts';
import { SETTING_MAX_CHARS } from './settings-fields.ts';

export type JsonObject = { [key: string]: unknown };

export const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/** Recipe bounds of the catalog's reference lines (recipes/limits/recipe-size, recipes/tags/normalization). */
export const RECIPE_LIMITS = {
  titleChars: 200,
  descriptionChars: 5000,
  ingredients: 200,
  steps: 100,
  stepTextChars: 5000,
  tags: 20,
  tagChars: 50,
  pageSizeMax: 100,
  pageSizeDefault: 20,
} as const;

/** The seeded categories (recipes/categories/source-and-shape). */
export const CATEGORY_SLUGS = ['breakfast', 'lunch', 'dinner', 'dessert', 'snack', 'drink', 'side', 'other'] as const;

const string = (extra: JsonObject = {}): JsonObject => ({ type: 'string', ...extra });
const dateTime = string({ format: 'date-time' });
const nullable = (schema: JsonObject): JsonObject => ({ ...schema, type: [schema['type'], 'null'] });
const object = (properties: JsonObject, required: readonly string[] = Object.keys(properties), closed = false): JsonObject => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  ...(closed ? { additionalProperties: false } : {}),
});

const email = string({ format: 'email', maxLength: EMAIL_MAX_CHARS, description: 'Trimmed and lower-cased.' });
const password = string({ minLength: PASSWORD_MIN_CHARS, maxLength: PASSWORD_MAX_CHARS });
const name = string({ minLength: 1, maxLength: NAME_MAX_CHARS });
const settingString = string({ maxLength: SETTING_MAX_CHARS, description: 'No control characters; "" clears it.' });
const inviteDays = ONE_TIME_LIFETIMES_MS.invite / 86_400_000;

const accountSchemas: JsonObject = {
  Error: object(
    {
      error: string({ description: 'A human-readable message.' }),
      details: { type: 'array', items: ref('FieldProblem'), description: 'On a 400 for input: every field at fault.' },
    },
    ['error'],
  ),
  FieldProblem: object({ field: string(), message: string() }),
  Health: object({ status: { const: 'ok' }, uptime: { type: 'number', minimum: 0, description: 'Seconds since start.' } }),
  Message: object({ message: string() }),
  User: object({
    id: string({ format: 'uuid' }),
    email: string({ format: 'email' }),
    name: string(),
    role: { enum: [...ROLES] },
    isActive: { type: 'boolean' },
    emailVerified: { type: 'boolean' },
    createdAt: dateTime,
  }),
  SetupStatus: object({ adminExists: { type: 'boolean' } }),
  NewAccount: object({ email, password, name }, ['email', 'password', 'name']),
  Registration: object(
    { email, password, name, inviteToken: string({ description: 'From an invite link; required while allowRegistration is false.' }) },
    ['email', 'password', 'name'],
  ),
  Registered: object(
    {
      user: ref('User'),
      message: string(),
      verificationUrl: string({ format: 'uri', description: 'Only while smtpHost is empty (otherwise the link is mailed).' }),
    },
    ['user', 'message'],
  ),
  Credentials: object({ email: string(), password: string() }),
  Session: object({ token: string({ description: 'A JWT (HS256) for the Authorization: Bearer header.' }), user: ref('User') }),
  ForgotPassword: object({ email: string() }),
  ForgotPasswordAnswer: object(
    { message: string(), resetUrl: string({ format: 'uri', description: 'Only while smtpHost is empty, and only for an existing account.' }) },
    ['message'],
  ),
  ResetPassword: object({ token: string(), password }),
  Settings: object({
    allowRegistration: { type: 'boolean' },
    smtpHost: string(),
    smtpPort: nullable({ type: 'integer', minimum: 1, maximum: 65_535 }),
    smtpUser: string(),
    smtpPassSet: { type: 'boolean', description: 'Whether an SMTP password is stored; the password itself is never shown.' },
    smtpFrom: string(),
  }),
  SettingsChange: object(
    {
      allowRegistration: { type: 'boolean' },
      smtpHost: settingString,
      smtpPort: nullable({ type: 'integer', minimum: 1, maximum: 65_535 }),
      smtpUser: settingString,
      smtpPass: settingString,
      smtpFrom: settingString,
    },
    [],
    true,
  ),
  UserChange: object({ role: { enum: [...ROLES] }, isActive: { type: 'boolean' } }, [], true),
  InviteRequest: object({ email: { ...email, description: 'Mail the link there too (when SMTP is configured).' } }, [], true),
  CreatedInvite: object(
    {
      id: string({ format: 'uuid' }),
      token: string({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'Shown only here: only its hash is stored.' }),
      url: string({ format: 'uri', description: 'APP_URL/register?inviteToken=<token>' }),
      createdAt: dateTime,
      expiresAt: { ...dateTime, description: `${inviteDays} days after createdAt.` },
      mailedTo: string({ format: 'email', description: 'When the link was mailed.' }),
    },
    ['id', 'token', 'url', 'createdAt', 'expiresAt'],
  ),
  Invite: object({ id: string({ format: 'uuid' }), createdAt: dateTime, expiresAt: dateTime }),
};

const L = RECIPE_LIMITS;
const ingredient = object({ name: string({ minLength: 1 }), quantity: { type: 'number' }, unit: string() }, ['name']);
const tags = { type: 'array', maxItems: L.tags, items: string({ minLength: 1, maxLength: L.tagChars }) };
const minutes = { type: 'integer', minimum: 0 };
const recipeFields: JsonObject = {
  title: string({ minLength: 1, maxLength: L.titleChars }),
  description: string({ maxLength: L.descriptionChars }),
  servings: { type: 'integer', minimum: 1 },
  prepMinutes: minutes,
  cookMinutes: minutes,
  ingredients: { type: 'array', maxItems: L.ingredients, items: ingredient },
  steps: {
    type: 'array',
    maxItems: L.steps,
    items: object(
      {
        order: { type: 'integer', minimum: 1, description: 'Unique in the recipe; default: the 1-based position.' },
        text: string({ minLength: 1, maxLength: L.stepTextChars }),
      },
      ['text'],
    ),
  },
  tags: { ...tags, description: 'Trimmed and lower-cased; duplicates dropped.' },
  category: { enum: [...CATEGORY_SLUGS], description: 'A category slug (GET /api/categories).' },
  isPublic: { type: 'boolean', default: false },
  sourceUrl: string({ format: 'uri' }),
};
const photoUrl = nullable(string({ description: 'GET it: /uploads/<file name>.' }));

const recipeSchemas: JsonObject = {
  Ingredient: ingredient,
  NewRecipe: object(recipeFields, ['title']),
  RecipeChange: { ...object(recipeFields, []), description: 'Partial: present keys replace, arrays as a whole.' },
  Recipe: object(
    {
      id: string({ format: 'uuid' }),
      ownerId: string({ format: 'uuid' }),
      ...recipeFields,
      steps: { type: 'array', items: object({ order: { type: 'integer', minimum: 1 }, text: string(), photoUrl }) },
      photoUrl,
      saved: { type: 'boolean', description: "In the caller's favorites (authenticated callers only)." },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    ['id', 'ownerId', 'title', 'description', 'servings', 'ingredients', 'steps', 'tags', 'isPublic', 'photoUrl', 'createdAt', 'updatedAt'],
  ),
  RecipePage: object({
    items: { type: 'array', items: ref('Recipe') },
    page: { type: 'integer', minimum: 1 },
    limit: { type: 'integer', minimum: 1, maximum: L.pageSizeMax },
    total: { type: 'integer', minimum: 0, description: 'Matches across all pages.' },
    totalPages: { type: 'integer', minimum: 0 },
  }),
  ImportRequest: object({ url: string({ format: 'uri', description: 'An http(s) page.' }) }),
  RecipeDraft: {
    ...object({ ...recipeFields, imageUrl: nullable(string({ format: 'uri' })) }, ['title']),
    description: 'Not saved: POST it to /api/recipes.',
  },
  Category: object({ id: string(), slug: { enum: [...CATEGORY_SLUGS] }, name: string() }),
  PhotoUpload: object({ photo: string({ format: 'binary', description: 'JPEG, PNG, WebP or GIF, at most 10 MiB.' }) }),
};

const pathId = (what: string): JsonObject => ({ name: 'id', in: 'path', required: true, description: `The ${what}'s id.`, schema: string() });
const query = (name: string, schema: JsonObject, description: string): JsonObject => ({ name, in: 'query', required: false, description, schema });

export const components: JsonObject = {
  securitySchemes: {
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token of POST /api/auth/login or /api/admin/setup.' },
  },
  schemas: { ...accountSchemas, ...recipeSchemas },
  parameters: {
    UserId: pathId('user'),
    InviteId: pathId('invite'),
    RecipeId: pathId('recipe'),
    StepOrder: { name: 'order', in: 'path', required: true, description: "The step's order value.", schema: { type: 'integer', minimum: 1 } },
    Q: query('q', string(), 'Text searched in title, description, ingredient names and tags (case-insensitive).'),
    Tag: query('tag', string(), 'Only recipes with this tag (case-insensitive).'),
    Category: query('category', { enum: [...CATEGORY_SLUGS] }, 'Only recipes of this category slug.'),
    Mine: query('mine', { enum: ['true', '1', 'false', '0'] }, "true or 1: only the caller's own recipes."),
    Saved: query('saved', { enum: ['true'] }, "Only the caller's favorites."),
    Page: query('page', { type: 'integer', minimum: 1, default: 1 }, '1-based page.'),
    Limit: query('limit', { type: 'integer', minimum: 1, default: L.pageSizeDefault }, `Page size; above ${L.pageSizeMax} counts as ${L.pageSizeMax}.`),
    VerificationToken: { name: 'token', in: 'query', required: true, description: 'The token of the verification link.', schema: string() },
    DocsAsset: { name: 'asset', in: 'path', required: true, schema: { enum: [...PACKAGE_ASSETS, DOCS_INIT_SCRIPT] } },
    PhotoFile: { name: 'file', in: 'path', required: true, description: 'The file name of a photoUrl.', schema: string() },
    Servings: query('servings', { type: 'integer', minimum: 1 }, 'Scale the ingredient quantities to this many servings.'),
  },
};
