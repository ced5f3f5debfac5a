// Localization documents for the TranslateLocalization cases: an order-preserving JSON model (objects keep
// their key order, including integer-like keys that JS objects would move first), its rendering as request
// text, a strict order-preserving parse of response text, and the comparison of an input with its
// translation, sorted into one list of findings per clause.
import { type Node, type ParseError, parseTree } from 'jsonc-parser';
import { type TranslateLocalizationResponse, TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { GrpcClient, GrpcOutcome } from '../harness/grpc-client.ts';
import { facts } from './target.ts';

/** An object with its members in document order. */
export class Obj {
  readonly entries: [string, Json][];
  constructor(entries: [string, Json][]) {
    this.entries = entries;
  }
}

export type Json = null | boolean | number | string | Json[] | Obj;
export type JsonPath = (string | number)[];

export const obj = (record: Record<string, Json>): Obj => new Obj(Object.entries(record));

/** JSON text of `doc`; `indent` undefined gives compact text. */
export function render(doc: Json, indent?: string, depth = ''): string {
  if (doc === null || typeof doc !== 'object') return JSON.stringify(doc);
  const items = Array.isArray(doc) ? doc.map((v) => render(v, indent, depth + (indent ?? ''))) : doc.entries.map(([k, v]) => `${JSON.stringify(k)}:${indent === undefined ? '' : ' '}${render(v, indent, depth + (indent ?? ''))}`);
  const [open, close] = Array.isArray(doc) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  if (indent === undefined) return `${open}${items.join(',')}${close}`;
  const inner = depth + indent;
  return `${open}\n${items.map((i) => inner + i).join(',\n')}\n${depth}${close}`;
}

function fromNode(node: Node): Json {
  switch (node.type) {
    case 'array':
      return (node.children ?? []).map(fromNode);
    case 'object':
      return new Obj((node.children ?? []).map((p) => [p.children![0]!.value as string, fromNode(p.children![1]!)]));
    default:
      return node.value as Json;
  }
}

/** Strict JSON parse keeping key order; undefined when `text` is not valid JSON. */
export function parseOrdered(text: string): Json | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors.length > 0 || root === undefined ? undefined : fromNode(root);
}

/** Whitespace in every common definition (Unicode White_Space and ECMAScript WhiteSpace/LineTerminator
 * alike); U+0085 and U+FEFF are whitespace in only one of them and are kept out of the cases. */
const WHITESPACE = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
export const WHITESPACE_CHARS: readonly string[] = [...WHITESPACE];
const BLANK = new RegExp(`^[${WHITESPACE}]*$`, 'u');
const AMBIGUOUS_BLANK = new RegExp(`^[${WHITESPACE}\u0085\ufeff]*$`, 'u');

export const isBlank = (text: string): boolean => BLANK.test(text);
/** Made only of whitespace under one definition but not under another (contains U+0085 or U+FEFF). */
export const isAmbiguousBlank = (text: string): boolean => AMBIGUOUS_BLANK.test(text) && !BLANK.test(text);

export const showPath = (path: JsonPath): string => `$${path.map((s) => (typeof s === 'number' ? `[${s}]` : `[${JSON.stringify(s)}]`)).join('')}`;
export const pathKey = (path: JsonPath): string => JSON.stringify(path);

export interface Leaf {
  path: JsonPath;
  text: string;
}

/** Every leaf string with its path, in document order. */
export function leafStrings(doc: Json, path: JsonPath = []): Leaf[] {
  if (typeof doc === 'string') return [{ path, text: doc }];
  if (Array.isArray(doc)) return doc.flatMap((v, i) => leafStrings(v, [...path, i]));
  if (doc instanceof Obj) return doc.entries.flatMap(([k, v]) => leafStrings(v, [...path, k]));
  return [];
}

/** The value at `path`, or undefined. */
export function valueAt(doc: Json | undefined, path: JsonPath): Json | undefined {
  let node: Json | undefined = doc;
  for (const segment of path) {
    if (typeof segment === 'number') node = Array.isArray(node) ? node[segment] : undefined;
    else node = node instanceof Obj ? node.entries.find(([k]) => k === segment)?.[1] : undefined;
  }
  return node;
}

export interface Findings {
  structure: string[];
  nonStrings: string[];
  blanks: string[];
  /** Non-blank, non-reused leaves left as they were (only when `expectChanged` says they must change). */
  unchanged: string[];
  reused: string[];
  /** Object key lists in a different order. */
  order: string[];
}

export interface CompareOptions {
  /** pathKey → the existing_translation value expected verbatim at that path. */
  reused?: Map<string, string>;
  /** Whether a non-blank, non-reused input leaf must come back different. */
  expectChanged?: (text: string) => boolean;
}

const kind = (v: Json | undefined): string =>
  v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'array' : v instanceof Obj ? 'object' : typeof v;

/** Compares an input document with the translated output. */
export function compare(input: Json, output: Json | undefined, options: CompareOptions = {}): Findings {
  const f: Findings = { structure: [], nonStrings: [], blanks: [], unchanged: [], reused: [], order: [] };
  const walk = (a: Json, b: Json | undefined, path: JsonPath): void => {
    const at = showPath(path);
    if (typeof a === 'string') {
      if (typeof b !== 'string') {
        f.structure.push(`${at}: a string became ${kind(b)}`);
        return;
      }
      const reused = options.reused?.get(pathKey(path));
      if (isBlank(a)) {
        if (b !== a) f.blanks.push(`${at}: blank ${JSON.stringify(a)} became ${JSON.stringify(b)}`);
      } else if (reused !== undefined) {
        if (b !== reused) f.reused.push(`${at}: expected the existing ${JSON.stringify(reused)}, got ${JSON.stringify(b)}`);
      } else if (options.expectChanged?.(a) && b === a) {
        f.unchanged.push(`${at}: ${JSON.stringify(a)} came back untranslated`);
      }
      return;
    }
    if (a === null || typeof a !== 'object') {
      if (kind(a) !== kind(b)) f.structure.push(`${at}: a ${kind(a)} became ${kind(b)}`);
      if (b !== a) f.nonStrings.push(`${at}: ${JSON.stringify(a)} became ${b === undefined ? 'nothing' : JSON.stringify(b)}`);
      return;
    }
    if (Array.isArray(a)) {
      if (!Array.isArray(b)) {
        f.structure.push(`${at}: an array became ${kind(b)}`);
        return;
      }
      if (b.length !== a.length) f.structure.push(`${at}: array of ${a.length} became ${b.length}`);
      a.forEach((v, i) => {
        walk(v, b[i], [...path, i]);
      });
      return;
    }
    if (!(b instanceof Obj)) {
      f.structure.push(`${at}: an object became ${kind(b)}`);
      return;
    }
    const keysA = a.entries.map(([k]) => k);
    const keysB = b.entries.map(([k]) => k);
    const sorted = (keys: string[]): string => JSON.stringify([...keys].sort());
    if (sorted(keysA) !== sorted(keysB)) f.structure.push(`${at}: keys ${sorted(keysA)} became ${sorted(keysB)}`);
    else if (JSON.stringify(keysA) !== JSON.stringify(keysB)) f.order.push(`${at}: keys ${JSON.stringify(keysA)} came back as ${JSON.stringify(keysB)}`);
    for (const [k, v] of a.entries) walk(v, b.entries.find(([key]) => key === k)?.[1], [...path, k]);
  };
  if (output === undefined) f.structure.push('the response json is not valid JSON');
  else walk(input, output, []);
  return f;
}

/** The strings_translated values the document allows: every non-blank, non-reused leaf position, or (when
 * equal texts are translated once) every distinct such text. */
export function allowedCounts(input: Json, reused: ReadonlySet<string> = new Set()): number[] {
  const fresh = leafStrings(input).filter((l) => !isBlank(l.text) && !reused.has(pathKey(l.path)));
  return [...new Set([fresh.length, new Set(fresh.map((l) => l.text)).size])];
}

/** The request fields selecting the target's own language pair (facts.pair). */
export const PAIR = { model: facts.pair.model, sourceLanguage: facts.pair.source, targetLanguage: facts.pair.target };

export interface LocalizationFields {
  sourceLanguage?: string;
  targetLanguage?: string;
  model?: string;
  existingTranslation?: string;
  context?: string;
  languageFormat?: string;
}

export interface Localized extends GrpcOutcome<TranslateLocalizationResponse> {
  /** The response json parsed in order; undefined without a response or when it is not valid JSON. */
  output: Json | undefined;
  count: number | undefined;
}

/** TranslateLocalization of the request text `json` over the target's pair, with `fields` added or replaced. */
export async function localizeText(client: GrpcClient, json: string, fields: LocalizationFields = {}): Promise<Localized> {
  const out = await client.call(TranslateService.method.translateLocalization, { ...PAIR, json, ...fields });
  return { ...out, output: out.response ? parseOrdered(out.response.json) : undefined, count: out.response?.stringsTranslated };
}

/** TranslateLocalization of `doc`, rendered with two-space indentation. */
export const localize = (client: GrpcClient, doc: Json, fields: LocalizationFields = {}): Promise<Localized> =>
  localizeText(client, render(doc, '  '), fields);
