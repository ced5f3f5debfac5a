// How the cases put what they send into a recipe manager's own JSON, and find what they need in its answers.
// The document shows no payload shape ("Request and response payload shapes of the recipe manager: not
// shown"), so a target declares its own under `shapes` in its description; every key is optional, and the
// defaults are the reference's shapes (README.md, "Describing a target's shapes"):
//
//   "shapes": {
//     "rename": { "<neutral field>": "<the target's field>" },  (both ways, at every depth of JSON objects)
//     "at": { "<answer>": "<JSON pointer into the target's answer>" },    ("" is the whole body)
//     "mine": "true",                (the value of the mine query parameter that selects one's own recipes)
//     "categoryKey": "/slug",        (pointer, within one entry of the categories list, to the value a recipe
//                                     names its category by; "" when the entries are the values)
//     "photoField": "photo",         (the multipart field of a photo upload)
//     "verifyParam": "token",        (the query parameter of GET /api/auth/verify-email carrying the token)
//     "linkToken": "token"           (the query parameter of a mailed or returned link holding its token)
//   }
//
// Answers named in `at`: token (the JWT of the login and setup answers), user (GET /auth/me), recipe (create,
// get, update and upload answers), items (the recipes of GET /recipes and GET /recipes/public), users (GET
// /admin/users), invite (POST /admin/invites), inviteToken (the token inside the invite answer), invites (GET
// /admin/invites), tags, categories, settings (GET and PATCH /admin/settings), draft (the import answer).
import { Inconclusive } from '../harness/inconclusive.ts';

export const ANSWERS = [
  'token',
  'user',
  'recipe',
  'items',
  'users',
  'invite',
  'inviteToken',
  'invites',
  'tags',
  'categories',
  'settings',
  'draft',
] as const;
export type Answer = (typeof ANSWERS)[number];

export interface Shapes {
  rename: Readonly<Record<string, string>>;
  at: Readonly<Record<Answer, string>>;
  mine: string;
  categoryKey: string;
  photoField: string;
  verifyParam: string;
  linkToken: string;
}

/** The reference's shapes. */
export const NEUTRAL_SHAPES: Shapes = {
  rename: {},
  at: {
    token: '/token',
    user: '',
    recipe: '',
    items: '/items',
    users: '',
    invite: '',
    inviteToken: '/token',
    invites: '',
    tags: '',
    categories: '',
    settings: '',
    draft: '',
  },
  mine: 'true',
  categoryKey: '/slug',
  photoField: 'photo',
  verifyParam: 'token',
  linkToken: 'token',
};

export class ShapesError extends Error {
  override name = 'ShapesError';
}

const STRING_KEYS = ['mine', 'categoryKey', 'photoField', 'verifyParam', 'linkToken'] as const;

/** The shapes of a target description's `shapes` (throws ShapesError naming the key when malformed). */
export function shapesOf(declared: unknown): Shapes {
  if (declared === undefined) return NEUTRAL_SHAPES;
  if (!isObject(declared)) throw new ShapesError('target description: "shapes" must be an object');
  const known = new Set(['rename', 'at', ...STRING_KEYS]);
  const unknown = Object.keys(declared).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new ShapesError(`target description: "shapes" has unknown keys ${unknown.join(', ')}`);
  const rename = stringMap('"shapes.rename"', declared.rename);
  const targets = Object.values(rename);
  if (new Set(targets).size !== targets.length) throw new ShapesError('target description: "shapes.rename" maps two fields to one name');
  const at = stringMap('"shapes.at"', declared.at);
  const unknownAnswers = Object.keys(at).filter((k) => !(ANSWERS as readonly string[]).includes(k));
  if (unknownAnswers.length > 0) throw new ShapesError(`target description: "shapes.at" names no answer ${unknownAnswers.join(', ')} (answers: ${ANSWERS.join(', ')})`);
  for (const [name, pointer] of Object.entries(at)) {
    if (pointer !== '' && !pointer.startsWith('/')) throw new ShapesError(`target description: "shapes.at.${name}" must be a JSON pointer ("" or starting with /)`);
  }
  const shapes: Shapes = { ...NEUTRAL_SHAPES, rename, at: { ...NEUTRAL_SHAPES.at, ...at } };
  for (const key of STRING_KEYS) {
    const value = declared[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new ShapesError(`target description: "shapes.${key}" must be a string`);
    (shapes as { -readonly [K in keyof Shapes]: Shapes[K] })[key] = value;
  }
  return shapes;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(where: string, value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new ShapesError(`target description: ${where} must be an object`);
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new ShapesError(`target description: ${where}.${key} must be a string`);
  }
  return value as Record<string, string>;
}

/** `value` with every object key renamed by `names`, at every depth. */
export function renameKeys(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, names));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [names[k] ?? k, renameKeys(v, names)]));
}

const inverse = (names: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(names).map(([a, b]) => [b, a]));

/** A request body in the target's field names. */
export const toTarget = (shapes: Shapes, body: unknown): unknown => renameKeys(body, shapes.rename);

/** An answer (or part of one) in neutral field names. */
export const fromTarget = (shapes: Shapes, body: unknown): unknown => renameKeys(body, inverse(shapes.rename));

/** The value at a JSON pointer (RFC 6901), or undefined. */
export function pointer(body: unknown, path: string): unknown {
  if (path === '') return body;
  let at: unknown = body;
  for (const raw of path.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isObject(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/** The `answer` inside a target's parsed body, in neutral names; Inconclusive when it is not there. */
export function read(shapes: Shapes, answer: Answer, body: unknown): unknown {
  const found = pointer(body, shapes.at[answer]);
  if (found === undefined) {
    throw new Inconclusive(`the ${answer} is not at ${JSON.stringify(shapes.at[answer])} of the answer (shapes.at.${answer}): ${JSON.stringify(body)?.slice(0, 300)}`);
  }
  return fromTarget(shapes, found);
}

/** Every absolute http(s) URL among the strings of a parsed body, at any depth. */
export function urlsIn(body: unknown): string[] {
  if (typeof body === 'string') return /^https?:\/\/\S+$/.test(body) ? [body] : [];
  if (Array.isArray(body)) return body.flatMap(urlsIn);
  if (isObject(body)) return Object.values(body).flatMap(urlsIn);
  return [];
}
