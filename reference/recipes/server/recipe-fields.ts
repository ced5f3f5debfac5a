// The recipe fields of POST and PATCH /api/recipes, checked and normalised (catalog recipes/recipes/payload,
// step-order-values, is-public-default, update-semantics, recipes/tags/normalization,
// recipes/categories/source-and-shape, recipes/limits/recipe-size). Every problem is collected, so one 400 names
// every field at fault (`steps[2].order`). Keys the create shape does not have (id, photoUrl, saved, imageUrl of an
// import draft…) are ignored, so a recipe or a draft as answered can be sent back as it is. null stands for "not
// set" in the optional fields.
import type { Ingredient } from '../store/index.ts';
import { type FieldProblem, validationError } from './api-error.ts';
import { isCategorySlug } from './categories.ts';

export const RECIPE_LIMITS = {
  titleChars: 200,
  descriptionChars: 5000,
  maxServings: 1000,
  /** A year: the import's durations go that far. */
  maxMinutes: 525_600,
  ingredients: 200,
  /** An ingredient line (the ingredients module's MAX_LINE_LENGTH): an imported line without a quantity is a name. */
  ingredientNameChars: 1000,
  unitChars: 50,
  maxQuantity: 1_000_000,
  steps: 100,
  stepChars: 5000,
  maxStepOrder: 1_000_000,
  tags: 20,
  tagChars: 50,
  urlChars: 2048,
} as const;

export interface StepFields {
  order: number;
  text: string;
}

/** A recipe's own fields, normalised; null: not set. */
export interface RecipeFields {
  title: string;
  description: string;
  servings: number;
  prepMinutes: number | null;
  cookMinutes: number | null;
  ingredients: Ingredient[];
  /** Sorted by order. */
  steps: StepFields[];
  tags: string[];
  category: string | null;
  isPublic: boolean;
  sourceUrl: string | null;
}

type Problems = FieldProblem[];
/** Reads one field: its normalised value, or undefined after adding its problems. */
type Reader<T> = (value: unknown, field: string, problems: Problems) => T | undefined;

/** Control characters other than tab and line breaks (which texts may hold); NUL among them. */
const CONTROL_IN_TEXT = /(?![\t\n\r])\p{Cc}/u;
/** Every control character: names, units, tags and titles are one line. */
const CONTROL_IN_LINE = /\p{Cc}/u;

/** `text` with the control characters a field may not hold made spaces (for texts from elsewhere: imported pages). */
export function withoutControls(text: string, kind: 'line' | 'text'): string {
  return text.replace(new RegExp((kind === 'line' ? CONTROL_IN_LINE : CONTROL_IN_TEXT).source, 'gu'), ' ');
}

/** Length in characters (code points), not UTF-16 units. */
export function charCount(text: string): number {
  let surrogates = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) surrogates++;
  }
  return text.length - surrogates;
}

function text(options: { min: number; max: number; line: boolean }): Reader<string> {
  return (value, field, problems) => {
    if (typeof value !== 'string') return fail(problems, field, 'must be a string');
    const trimmed = value.trim();
    const length = charCount(trimmed);
    if (length < options.min || length > options.max) {
      return fail(problems, field, options.min > 0 ? `must be ${options.min} to ${options.max} characters` : `longer than ${options.max} characters`);
    }
    if ((options.line ? CONTROL_IN_LINE : CONTROL_IN_TEXT).test(trimmed)) return fail(problems, field, 'must not contain control characters');
    return trimmed;
  };
}

function integer(min: number, max: number): Reader<number> {
  return (value, field, problems) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
      ? (value as number)
      : fail(problems, field, `must be an integer from ${min} to ${max}`);
}

function fail(problems: Problems, field: string, message: string): undefined {
  problems.push({ field, message });
  return undefined;
}

/** null (not set) passes as null; anything else goes to `read`. */
const nullable =
  <T>(read: Reader<T>): Reader<T | null> =>
  (value, field, problems) =>
    value === null ? null : read(value, field, problems);

const title = text({ min: 1, max: RECIPE_LIMITS.titleChars, line: true });
const description = nullable(text({ min: 0, max: RECIPE_LIMITS.descriptionChars, line: false }));
const servings = nullable(integer(1, RECIPE_LIMITS.maxServings));
const minutes = nullable(integer(0, RECIPE_LIMITS.maxMinutes));
const ingredientName = text({ min: 1, max: RECIPE_LIMITS.ingredientNameChars, line: true });
const unit = nullable(text({ min: 0, max: RECIPE_LIMITS.unitChars, line: true }));
const stepText = text({ min: 1, max: RECIPE_LIMITS.stepChars, line: false });
const stepOrder = nullable(integer(1, RECIPE_LIMITS.maxStepOrder));

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function list<T>(max: number, item: Reader<T>): Reader<T[]> {
  return (value, field, problems) => {
    if (!Array.isArray(value)) return fail(problems, field, 'must be an array');
    if (value.length > max) return fail(problems, field, `at most ${max} entries`);
    const out: T[] = [];
    const before = problems.length;
    value.forEach((entry, i) => {
      const read = item(entry, `${field}[${i}]`, problems);
      if (read !== undefined) out.push(read);
    });
    return problems.length === before ? out : undefined;
  };
}

const quantity: Reader<number | null> = (value, field, problems) => {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > RECIPE_LIMITS.maxQuantity) {
    return fail(problems, field, `must be a number from 0 to ${RECIPE_LIMITS.maxQuantity}`);
  }
  return value;
};

const ingredient: Reader<Ingredient> = (value, field, problems) => {
  if (!isObject(value)) return fail(problems, field, 'must be an object {name, quantity?, unit?}');
  const before = problems.length;
  const name = ingredientName(value['name'], `${field}.name`, problems);
  const amount = value['quantity'] === undefined ? null : quantity(value['quantity'], `${field}.quantity`, problems);
  const measure = value['unit'] === undefined ? null : unit(value['unit'], `${field}.unit`, problems);
  if (problems.length > before || name === undefined) return undefined;
  const out: Ingredient = { name };
  if (amount !== null && amount !== undefined) out.quantity = amount;
  if (measure) out.unit = measure;
  return out;
};

/** A step as sent: its order may be missing (its 1-based position is used then). */
const step: Reader<{ order: number | null; text: string }> = (value, field, problems) => {
  if (!isObject(value)) return fail(problems, field, 'must be an object {order?, text}');
  const before = problems.length;
  const order = value['order'] === undefined ? null : stepOrder(value['order'], `${field}.order`, problems);
  const body = stepText(value['text'], `${field}.text`, problems);
  return problems.length > before || body === undefined || order === undefined ? undefined : { order, text: body };
};

const steps: Reader<StepFields[]> = (value, field, problems) => {
  const read = list(RECIPE_LIMITS.steps, step)(value, field, problems);
  if (read === undefined) return undefined;
  const seen = new Map<number, number>();
  const out = read.map((entry, i) => ({ order: entry.order ?? i + 1, text: entry.text }));
  out.forEach(({ order }, i) => {
    const first = seen.get(order);
    if (first === undefined) seen.set(order, i);
    else fail(problems, `${field}[${i}].order`, `${order} is the order of ${field}[${first}] too; orders are unique`);
  });
  return seen.size === out.length ? out.sort((a, b) => a.order - b.order) : undefined;
};

/** Trimmed, lower-cased, empty ones dropped, each once (catalog recipes/tags/normalization). */
const tags: Reader<string[]> = (value, field, problems) => {
  if (!Array.isArray(value)) return fail(problems, field, 'must be an array of strings');
  const out = new Set<string>();
  const before = problems.length;
  for (const [i, entry] of value.entries()) {
    const problem =
      typeof entry !== 'string'
        ? 'must be a string'
        : charCount(entry.trim()) > RECIPE_LIMITS.tagChars
          ? `longer than ${RECIPE_LIMITS.tagChars} characters`
          : CONTROL_IN_LINE.test(entry)
            ? 'must not contain control characters'
            : undefined;
    if (problem !== undefined) fail(problems, `${field}[${i}]`, problem);
    else if ((entry as string).trim() !== '') out.add((entry as string).trim().toLowerCase());
  }
  if (problems.length > before) return undefined;
  if (out.size > RECIPE_LIMITS.tags) return fail(problems, field, `at most ${RECIPE_LIMITS.tags} distinct tags`);
  return [...out];
};

const category: Reader<string | null> = (value, field, problems) =>
  value === null || isCategorySlug(value) ? value : fail(problems, field, 'is not a category slug (GET /api/categories)');

const isPublic: Reader<boolean> = (value, field, problems) => (typeof value === 'boolean' ? value : fail(problems, field, 'must be a boolean'));

const sourceUrl: Reader<string | null> = (value, field, problems) => {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > RECIPE_LIMITS.urlChars) {
    return fail(problems, field, `must be an http(s) URL of at most ${RECIPE_LIMITS.urlChars} characters`);
  }
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fail(problems, field, 'must be an absolute http(s) URL');
  return url.href;
};

const READERS: { [K in keyof RecipeFields]: Reader<RecipeFields[K] | null> } = {
  title,
  description,
  servings,
  prepMinutes: minutes,
  cookMinutes: minutes,
  ingredients: list(RECIPE_LIMITS.ingredients, ingredient),
  steps,
  tags,
  category,
  isPublic,
  sourceUrl,
};

const FIELDS = Object.keys(READERS) as (keyof RecipeFields)[];

/** The defaults of a created recipe: servings 1, private, nothing else (catalog recipes/recipes/is-public-default). */
function defaults(): Omit<RecipeFields, 'title'> {
  return {
    description: '',
    servings: 1,
    prepMinutes: null,
    cookMinutes: null,
    ingredients: [],
    steps: [],
    tags: [],
    category: null,
    isPublic: false,
    sourceUrl: null,
  };
}

/** The fields present in `body`, normalised; null for an optional field cleared. */
function readFields(body: Record<string, unknown>, problems: Problems): Partial<Record<keyof RecipeFields, unknown>> {
  const out: Partial<Record<keyof RecipeFields, unknown>> = {};
  for (const field of FIELDS) {
    if (!Object.hasOwn(body, field) || body[field] === undefined) continue;
    const value = READERS[field](body[field], field, problems);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** A new recipe's fields (POST /api/recipes), or a 400 naming every field at fault. */
export function newRecipeOf(body: Record<string, unknown>): RecipeFields {
  const problems: Problems = [];
  if (!Object.hasOwn(body, 'title')) problems.push({ field: 'title', message: 'is required' });
  const read = readFields(body, problems);
  if (problems.length > 0) throw validationError(problems);
  const out = { ...defaults(), ...(read as Partial<RecipeFields>) } as RecipeFields;
  // Cleared (null) where a value is needed: the default.
  out.description ??= '';
  out.servings ??= 1;
  return out;
}

/** The fields a PATCH changes (absent keys are kept), or a 400 naming every field at fault. */
export function recipeChangeOf(body: Record<string, unknown>): Partial<RecipeFields> {
  const problems: Problems = [];
  const read = readFields(body, problems);
  if (problems.length > 0) throw validationError(problems);
  const change = read as Partial<RecipeFields>;
  if (change.description === null) change.description = '';
  if (change.servings === null) change.servings = 1;
  return change;
}
