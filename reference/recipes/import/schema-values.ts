// Reading schema.org values as JSON-LD and microdata write them: a property may be a value, a list, a node, a
// reference to a node ({"@id": …} in an @graph), or a list of any of these (microdata always gives lists).
import { plainText, textLines } from './plain-text.ts';

export type SchemaNode = Record<string, unknown>;
/** Replaces a bare reference ({"@id": "#x"}) by the node it names, when the page has it. */
export type Resolve = (value: unknown) => unknown;

export const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A node's types by local name: "Recipe" for "Recipe", "schema:Recipe" and "https://schema.org/Recipe". */
export function typesOf(node: SchemaNode): string[] {
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']];
  return types.filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, ''));
}

/** A literal's value: {"@value": "Pancakes", "@language": "en"} (what microdata and RDFa give on a page with a
 * lang attribute, and JSON-LD may write) is "Pancakes". */
export const literal = (value: unknown): unknown => (isNode(value) && '@value' in value ? value['@value'] : value);

/** The items of a property: lists flattened (two levels: a list of lists), literals unwrapped, references
 * resolved, empty values dropped. */
export function items(value: unknown, resolve: Resolve): unknown[] {
  const out: unknown[] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    for (const inner of Array.isArray(item) ? item : [item]) {
      const resolved = literal(resolve(inner));
      if (resolved !== null && resolved !== undefined && resolved !== '') out.push(resolved);
    }
  }
  return out;
}

/** Each item's text on one line (strings and numbers); items without text are skipped. */
export function texts(value: unknown, resolve: Resolve): string[] {
  const out: string[] = [];
  for (const item of items(value, resolve)) {
    const text = typeof item === 'string' || typeof item === 'number' ? plainText(String(item)) : '';
    if (text) out.push(text);
  }
  return out;
}

export const firstText = (value: unknown, resolve: Resolve): string | null => texts(value, resolve)[0] ?? null;

/** The first http(s) URL of an image property (a URL, an ImageObject's url or contentUrl, or lists of those),
 * made absolute against the page. */
export function imageUrl(value: unknown, resolve: Resolve, base: URL, depth = 0): string | null {
  for (const item of items(value, resolve)) {
    const found =
      typeof item === 'string'
        ? absoluteUrl(item, base)
        : isNode(item) && depth < 3
          ? imageUrl(item.url ?? item.contentUrl, resolve, base, depth + 1)
          : null;
    if (found) return found;
  }
  return null;
}

export function absoluteUrl(text: string, base: URL): string | null {
  try {
    const url = new URL(plainText(text), base);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.href.length <= 2048 ? url.href : null;
  } catch {
    return null;
  }
}

const DURATION =
  /^P(?!$)(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?=\d)(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i;
/** Minutes in each field of DURATION: years and months as 365 and 30 days (pages write P0Y0M0DT0H35M0S). */
const DURATION_MINUTES = [525_600, 43_200, 10_080, 1_440, 60, 1, 1 / 60];
/** Longer durations are taken for mistakes: a year. */
export const MAX_DURATION_MINUTES = 525_600;

/** An ISO 8601 duration ("PT1H30M", "P0DT45M", "PT90M") in whole minutes, rounded; null when the value is not
 * one, or is longer than MAX_DURATION_MINUTES. */
export function durationMinutes(value: unknown, resolve: Resolve): number | null {
  for (const text of texts(value, resolve)) {
    const match = DURATION.exec(text.replace(/\s+/g, ''));
    if (!match) continue;
    const total = DURATION_MINUTES.reduce((sum, unit, i) => sum + Number((match[i + 1] ?? '0').replace(',', '.')) * unit, 0);
    const minutes = Math.round(total);
    if (minutes <= MAX_DURATION_MINUTES) return minutes;
  }
  return null;
}

export const MAX_SERVINGS = 1000;

/** The number of servings of recipeYield: a number (4), or the first whole number in a text ("4 servings",
 * "Serves 4-6" → 4), from the first item that has one within 1 to MAX_SERVINGS. */
export function servingsCount(value: unknown, resolve: Resolve): number | null {
  for (const text of texts(value, resolve)) {
    const digits = /\d+(?:\.\d+)?/.exec(text)?.[0];
    const count = digits === undefined ? Number.NaN : Math.round(Number(digits));
    if (count >= 1 && count <= MAX_SERVINGS) return count;
  }
  return null;
}

/** Keywords as tags: a comma-separated text or a list of them, trimmed, each once (ignoring case), in order. */
export function keywordList(value: unknown, resolve: Resolve, limits: { count: number; length: number }): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const text of texts(value, resolve)) {
    for (const part of text.split(/[,;]/)) {
      const tag = part.trim();
      const key = tag.toLowerCase();
      if (!tag || tag.length > limits.length || seen.has(key)) continue;
      seen.add(key);
      out.push(tag);
      if (out.length === limits.count) return out;
    }
  }
  return out;
}

/** Steps of recipeInstructions in order: a text (one step per line or paragraph), a list of texts, HowToStep
 * (its text, else its name), HowToSection and ItemList (their itemListElement, the section's name dropped),
 * ListItem (its item), nested to any depth up to 8; items that all carry a position are taken in its order. */
export function instructionSteps(value: unknown, resolve: Resolve, limits: { count: number; length: number }): string[] {
  const out: string[] = [];
  collectSteps(value, resolve, out, 0, limits.count);
  return out.map((step) => cut(step, limits.length));
}

function collectSteps(value: unknown, resolve: Resolve, out: string[], depth: number, max: number): void {
  for (const item of byPosition(items(value, resolve))) {
    if (out.length >= max || depth > 8) return;
    if (typeof item === 'string' || typeof item === 'number') {
      out.push(...textLines(String(item)).map((line) => line.replace(/^(?:step\s*)?\d{1,2}\s*[.):]\s+/i, '')).filter(Boolean));
    } else if (isNode(item)) {
      const types = typesOf(item);
      const container =
        types.includes('HowToSection') || types.includes('ItemList') || (types.includes('ListItem') && item.item !== undefined);
      const own = container ? null : (firstText(item.text, resolve) ?? firstText(item.name, resolve) ?? firstText(item.description, resolve));
      if (own) out.push(own);
      else collectSteps(item.itemListElement ?? item.item, resolve, out, depth + 1, max);
    }
  }
  out.splice(max);
}

function byPosition(list: unknown[]): unknown[] {
  const position = (item: unknown) => (isNode(item) ? Number(Array.isArray(item.position) ? item.position[0] : item.position) : Number.NaN);
  if (list.length < 2 || !list.every((item) => Number.isFinite(position(item)))) return list;
  return [...list].sort((a, b) => position(a) - position(b));
}

/** `text` cut to at most `length` UTF-16 units, never inside a surrogate pair. */
export function cut(text: string, length: number): string {
  if (text.length <= length) return text;
  const end = /[\ud800-\udbff]/.test(text[length - 1] ?? '') ? length - 1 : length;
  return text.slice(0, end).trimEnd();
}
