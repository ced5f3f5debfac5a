// How the cases put what they send into a recipe manager's own JSON, and find what they need in its answers.
// The document shows no payload shape ("Request and response payload shapes of the recipe manager: not
// shown"), so a target declares its own under `shapes` in its description; every key is optional, and the
// defaults are the reference's shapes (README.md, "Describing a target's shapes"):
//
//   "shapes": {
//     "rename": { "<entity>": { "<neutral path>": "<the target's field>" } },
//                                    (entity: recipe, user, invite, settings or import; the path names the field from
//                                     the entity's root, "steps/text" a field of each step: both ways, at that
//                                     depth of that entity only)
//     "at": { "<answer>": "<JSON pointer into the target's answer>" },    ("" is the whole body)
//     "mine": "true",                (the value of the mine query parameter that selects one's own recipes)
//     "pageBase": 1,                 (the number of the first page, for the cases about paging)
//     "categoryKey": "/slug",        (pointer, within one entry of the categories list, to the value a recipe
//                                     names its category by; "" when the entries are the values)
//     "tagKey": "",                  (pointer, within one entry of the tags list, to the tag; when not declared:
//                                     the entry itself, or the one string field of an object entry)
//     "photoField": "photo",         (the multipart field of a photo upload)
//     "inviteBody": {},              (the body, in neutral names, of POST /admin/invites)
//     "verifyParam": "token",        (the query parameter of GET /api/auth/verify-email carrying the token)
//     "linkToken": "token",          (the query parameter of a mailed or returned link holding its token,
//     "verifyLinkToken", "resetLinkToken"   or of one kind of link: these default to linkToken)
//   }
//
// Answers named in `at`: token (the JWT of the login answer), user (GET /auth/me), recipe (GET /recipes/:id;
// the default of createdRecipe and the base of photoUrl), createdRecipe (POST /recipes), photoUrl (the URL of
// the stored photo in a main photo upload's answer; default: the recipe's photoUrl at `recipe`), items (the
// recipes of GET /recipes; the default of publicItems), publicItems (GET /recipes/public), users (GET
// /admin/users), invite (POST /admin/invites), inviteToken (the token inside the invite answer), invites (GET
// /admin/invites), tags, categories, settings (GET /admin/settings), draft (the import answer).
import { Inconclusive } from '../harness/inconclusive.ts';

export const ANSWERS = [
  'token',
  'user',
  'recipe',
  'createdRecipe',
  'photoUrl',
  'items',
  'publicItems',
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

/** What `shapes.rename` renames fields of: each answer and request body holds one of them, or none (`import`:
 * the body of POST /api/recipes/import-url, {url}; its answer, the draft, is a recipe). */
export const ENTITIES = ['recipe', 'user', 'invite', 'settings', 'import'] as const;
export type Entity = (typeof ENTITIES)[number];

/** The entity each answer holds (undefined: a value renames do not apply to). */
const ENTITY_OF: Readonly<Record<Answer, Entity | undefined>> = {
  token: undefined,
  user: 'user',
  recipe: 'recipe',
  createdRecipe: 'recipe',
  photoUrl: undefined,
  items: 'recipe',
  publicItems: 'recipe',
  users: 'user',
  invite: 'invite',
  inviteToken: undefined,
  invites: 'invite',
  tags: undefined,
  categories: undefined,
  settings: 'settings',
  draft: 'recipe',
};

/** The entity of a request body the cases send, by its endpoint (undefined: sent as it is). */
export function entityOfRequest(method: string, path: string): Entity | undefined {
  const at = path.split('?')[0]!;
  if ((method === 'POST' && at === '/api/recipes') || (method === 'PATCH' && /^\/api\/recipes\/[^/]+$/.test(at))) return 'recipe';
  if (/^\/api\/auth\/(?:register|login|forgot-password|reset-password)$/.test(at) || at === '/api/admin/setup' || /^\/api\/admin\/users\/[^/]+$/.test(at)) return 'user';
  if (at === '/api/admin/settings') return 'settings';
  if (at.startsWith('/api/admin/invites')) return 'invite';
  if (method === 'POST' && at === '/api/recipes/import-url') return 'import';
  return undefined;
}

/** Renames at one level of an entity: a field's name there and the renames below it. */
export type RenameTree = ReadonlyMap<string, { readonly name: string; readonly below: RenameTree }>;

export type LinkKind = 'verify' | 'reset';

export interface Shapes {
  /** Neutral → target, per entity (`rename`). */
  rename: Readonly<Record<Entity, RenameTree>>;
  /** Target → neutral, per entity. */
  renameBack: Readonly<Record<Entity, RenameTree>>;
  at: Readonly<Record<Answer, string>>;
  mine: string;
  /** Declared first page number (undefined: not declared; paging cases take 1, walks find it out). */
  pageBase: number | undefined;
  categoryKey: string;
  /** Declared pointer to the tag in a tags entry (undefined: found out, tagOf). */
  tagKey: string | undefined;
  photoField: string;
  /** The body of POST /api/admin/invites, in neutral names (renamed through rename.invite). */
  inviteBody: Readonly<Record<string, unknown>>;
  verifyParam: string;
  /** The token parameter of each kind of link. */
  linkToken: Readonly<Record<LinkKind, string>>;
}

const NO_RENAMES: Readonly<Record<Entity, RenameTree>> = { recipe: new Map(), user: new Map(), invite: new Map(), settings: new Map(), import: new Map() };

/** The reference's shapes. */
export const NEUTRAL_SHAPES: Shapes = {
  rename: NO_RENAMES,
  renameBack: NO_RENAMES,
  at: {
    token: '/token',
    user: '',
    recipe: '',
    createdRecipe: '',
    photoUrl: '/photoUrl',
    items: '/items',
    publicItems: '/items',
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
  pageBase: undefined,
  categoryKey: '/slug',
  tagKey: undefined,
  photoField: 'photo',
  inviteBody: {},
  verifyParam: 'token',
  linkToken: { verify: 'token', reset: 'token' },
};

export class ShapesError extends Error {
  override name = 'ShapesError';
}

const STRING_KEYS = ['mine', 'categoryKey', 'tagKey', 'photoField', 'verifyParam', 'linkToken', 'verifyLinkToken', 'resetLinkToken'] as const;
const POINTER_KEYS = new Set(['categoryKey', 'tagKey']);

/** The shapes of a target description's `shapes` (throws ShapesError naming the key when malformed). */
export function shapesOf(declared: unknown): Shapes {
  if (declared === undefined) return NEUTRAL_SHAPES;
  if (!isObject(declared)) throw new ShapesError('target description: "shapes" must be an object');
  const known = new Set(['rename', 'at', 'pageBase', 'inviteBody', ...STRING_KEYS]);
  const unknown = Object.keys(declared).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new ShapesError(`target description: "shapes" has unknown keys ${unknown.join(', ')}`);
  const strings: Partial<Record<(typeof STRING_KEYS)[number], string>> = {};
  for (const key of STRING_KEYS) {
    const value = declared[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new ShapesError(`target description: "shapes.${key}" must be a string`);
    if (POINTER_KEYS.has(key)) checkPointer(`shapes.${key}`, value);
    strings[key] = value;
  }
  const pageBase = declared['pageBase'];
  if (pageBase !== undefined && (typeof pageBase !== 'number' || !Number.isSafeInteger(pageBase))) {
    throw new ShapesError(`target description: "shapes.pageBase" must be an integer (the number of the first page), not ${JSON.stringify(pageBase)}`);
  }
  const inviteBody = declared['inviteBody'];
  if (inviteBody !== undefined && !isObject(inviteBody)) throw new ShapesError('target description: "shapes.inviteBody" must be an object (the body of POST /api/admin/invites)');
  const rename = renamesOf(declared['rename']);
  const linkToken = strings.linkToken ?? NEUTRAL_SHAPES.linkToken.verify;
  return {
    rename,
    renameBack: Object.fromEntries(ENTITIES.map((e) => [e, inverse(rename[e])])) as Record<Entity, RenameTree>,
    at: pointersOf(declared['at'], rename.recipe),
    mine: strings.mine ?? NEUTRAL_SHAPES.mine,
    pageBase,
    categoryKey: strings.categoryKey ?? NEUTRAL_SHAPES.categoryKey,
    tagKey: strings.tagKey,
    photoField: strings.photoField ?? NEUTRAL_SHAPES.photoField,
    inviteBody: inviteBody ?? NEUTRAL_SHAPES.inviteBody,
    verifyParam: strings.verifyParam ?? NEUTRAL_SHAPES.verifyParam,
    linkToken: { verify: strings.verifyLinkToken ?? linkToken, reset: strings.resetLinkToken ?? linkToken },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkPointer(where: string, pointer: string): void {
  if (pointer !== '' && !pointer.startsWith('/')) throw new ShapesError(`target description: "${where}" must be a JSON pointer ("" or starting with /), not ${JSON.stringify(pointer)}`);
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** `at` with the defaults: an answer's own pointer, else its group's (createdRecipe: recipe, publicItems:
 * items), else the reference's; photoUrl defaults to the recipe's photoUrl field (as the target names it). */
function pointersOf(value: unknown, recipeRenames: RenameTree): Record<Answer, string> {
  const at = stringMap('"shapes.at"', value);
  const unknownAnswers = Object.keys(at).filter((k) => !(ANSWERS as readonly string[]).includes(k));
  if (unknownAnswers.length > 0) throw new ShapesError(`target description: "shapes.at" names no answer ${unknownAnswers.join(', ')} (answers: ${ANSWERS.join(', ')})`);
  for (const [name, pointer] of Object.entries(at)) checkPointer(`shapes.at.${name}`, pointer);
  const pointers = { ...NEUTRAL_SHAPES.at, ...at } as Record<Answer, string>;
  pointers.createdRecipe = at['createdRecipe'] ?? pointers.recipe;
  pointers.publicItems = at['publicItems'] ?? pointers.items;
  pointers.photoUrl = at['photoUrl'] ?? `${pointers.recipe}/${escapePointer(recipeRenames.get('photoUrl')?.name ?? 'photoUrl')}`;
  return pointers;
}

function stringMap(where: string, value: unknown, nonEmpty = false): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new ShapesError(`target description: ${where} must be an object`);
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string' || (nonEmpty && v === '')) throw new ShapesError(`target description: ${where}.${key} must be a${nonEmpty ? ' non-empty' : ''} string`);
  }
  return value as Record<string, string>;
}

interface Node {
  name: string;
  below: Map<string, Node>;
}

/** `shapes.rename`: per entity, neutral paths ("title", "steps/text") to the target's names. */
function renamesOf(value: unknown): Record<Entity, RenameTree> {
  if (value === undefined) return NO_RENAMES;
  if (!isObject(value)) throw new ShapesError('target description: "shapes.rename" must be an object of entities');
  const unknown = Object.keys(value).filter((k) => !(ENTITIES as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new ShapesError(`target description: "shapes.rename" names no entity ${unknown.join(', ')} (entities: ${ENTITIES.join(', ')}; e.g. "rename": {"recipe": {"title": "name", "steps/text": "instruction"}})`);
  }
  const trees = { ...NO_RENAMES } as Record<Entity, RenameTree>;
  for (const [entity, paths] of Object.entries(value)) {
    const root = new Map<string, Node>();
    for (const [path, name] of Object.entries(stringMap(`"shapes.rename.${entity}"`, paths, true))) {
      const segments = path.split('/');
      if (segments.some((s) => s === '')) throw new ShapesError(`target description: "shapes.rename.${entity}" has an empty segment in ${JSON.stringify(path)}`);
      let level = root;
      for (const [i, segment] of segments.entries()) {
        let node = level.get(segment);
        if (!node) {
          node = { name: segment, below: new Map() };
          level.set(segment, node);
        }
        if (i === segments.length - 1) node.name = name;
        level = node.below;
      }
    }
    checkDistinct(`shapes.rename.${entity}`, root);
    trees[entity as Entity] = root;
  }
  return trees;
}

function checkDistinct(where: string, level: ReadonlyMap<string, Node>): void {
  const names = [...level.values()].map((n) => n.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new ShapesError(`target description: "${where}" maps two fields of one level to ${twice.join(', ')}`);
  for (const [key, node] of level) checkDistinct(`${where} ${key}/`, node.below);
}

function inverse(tree: RenameTree): RenameTree {
  return new Map([...tree].map(([neutral, node]) => [node.name, { name: neutral, below: inverse(node.below) }]));
}

/** `value` with the keys `tree` names renamed, each at its own depth (arrays are looked through). */
export function renameKeys(value: unknown, tree: RenameTree): unknown {
  if (tree.size === 0) return value;
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, tree));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const node = tree.get(k);
      return node ? [node.name, renameKeys(v, node.below)] : [k, v];
    }),
  );
}

/** A request body in the target's field names (the entity its endpoint takes, entityOfRequest). */
export const toTarget = (shapes: Shapes, entity: Entity | undefined, body: unknown): unknown => (entity ? renameKeys(body, shapes.rename[entity]) : body);

/** An answer (or part of one) holding `entity`, in neutral field names. */
export const fromTarget = (shapes: Shapes, entity: Entity | undefined, body: unknown): unknown => (entity ? renameKeys(body, shapes.renameBack[entity]) : body);

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
  return fromTarget(shapes, ENTITY_OF[answer], found);
}

/** The tag of one entry of the tags list: at shapes.tagKey when declared, else the entry itself when it is a
 * string, or the one string field of an object entry ({tag, count}); Inconclusive when none can be told. */
export function tagOf(shapes: Shapes, entry: unknown): string {
  if (shapes.tagKey !== undefined) {
    const found = pointer(entry, shapes.tagKey);
    if (typeof found !== 'string') throw new Inconclusive(`a tags entry has no tag at ${JSON.stringify(shapes.tagKey)} (shapes.tagKey): ${JSON.stringify(entry)}`);
    return found;
  }
  if (typeof entry === 'string') return entry;
  const strings = isObject(entry) ? Object.values(entry).filter((v): v is string => typeof v === 'string') : [];
  if (strings.length !== 1) throw new Inconclusive(`a tags entry is neither a string nor an object with one string field (declare shapes.tagKey): ${JSON.stringify(entry)}`);
  return strings[0]!;
}

/** Every absolute http(s) URL among the strings of a parsed body, at any depth. */
export function urlsIn(body: unknown): string[] {
  if (typeof body === 'string') return /^https?:\/\/\S+$/.test(body) ? [body] : [];
  if (Array.isArray(body)) return body.flatMap(urlsIn);
  if (isObject(body)) return Object.values(body).flatMap(urlsIn);
  return [];
}
