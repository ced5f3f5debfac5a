// Reading a tool call's outcome. The form of a successful result is not specified
// (translate-tools/tools/result-format), so the must cases read a value wherever a reasonable answer puts it:
// - a response object: `structuredContent`, or a text item that is one JSON object (alone, or as the only
//   fenced block of a Markdown item), field names in lowerCamelCase or snake_case, a field with its default
//   value present or left out (protobuf's JSON mapping leaves them out);
// - else, or for a field the object does not hold under its name, the value stated in the text: a string as
//   written (also JSON- or Markdown-escaped), a JSON document as any JSON value in the text, a number beside a
//   word for it ("probability 0.72", "72 %", "3 strings"), a yes/no beside a word for it ("STT: enabled"),
//   each key of a list.
// A value read and found different is a mismatch (the case fails); a value not found at all is unreadable:
// the case cannot judge, and says so (`judge`, outcome error) with the answer shown. A failure is a result
// with `isError: true` or a JSON-RPC error; a call the server never answered (the client's limit ran out) is
// neither a success nor a failure: `answered` is false.
import { type DescField, type DescMessage, type MessageShape, ScalarType, toJson } from '@bufbuild/protobuf';
import type { ExecutionContext } from 'ava';
import type { CaseContext } from '../harness/case-context.ts';
import type { GrpcOutcome } from '../harness/grpc-client.ts';
import type { ToolOutcome } from '../harness/mcp-client.ts';

export interface Answer {
  /** The server answered the call (with a result or a JSON-RPC error) before the client's limit. */
  answered: boolean;
  /** A result without `isError`. */
  ok: boolean;
  /** A result with `isError: true`. */
  toolError: boolean;
  /** A JSON-RPC error in place of a result. */
  rpcError: { code: number; message: string } | undefined;
  /** The text items, joined by newlines (the JSON-RPC error's message for an error). */
  text: string;
  /** The response object read from the result, field names in lowerCamelCase; undefined when there is none. */
  fields: Record<string, unknown> | undefined;
  /** Where values are looked for in text: the text items and the structured content as JSON. */
  haystack: string;
}

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());

function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelKeys(v)]));
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A text item that is one JSON object: the whole item, or the only fenced block of an item holding nothing else. */
function parseObject(text: string): Record<string, unknown> | undefined {
  const fenced = /^\s*```[\w-]*\n([\s\S]*?)\n?```\s*$/.exec(text);
  try {
    const value: unknown = JSON.parse(fenced ? fenced[1]! : text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function answerOf(outcome: ToolOutcome): Answer {
  if (outcome.unanswered) {
    const { afterMs, aborted } = outcome.unanswered;
    const text = aborted ? `no answer before the call was cancelled (${afterMs} ms)` : `no answer within ${afterMs} ms (the client's limit)`;
    return { answered: false, ok: false, toolError: false, rpcError: undefined, text, fields: undefined, haystack: '' };
  }
  if (outcome.error) {
    const { message } = outcome.error;
    return { answered: true, ok: false, toolError: false, rpcError: outcome.error, text: message, fields: undefined, haystack: message };
  }
  const { result } = outcome;
  const texts = (result.content ?? []).flatMap((item) => (item.type === 'text' ? [item.text] : []));
  const structured = isObject(result.structuredContent) ? result.structuredContent : undefined;
  const fromText = texts.map(parseObject).find((o) => o !== undefined);
  const found = structured ?? fromText;
  return {
    answered: true,
    ok: result.isError !== true,
    toolError: result.isError === true,
    rpcError: undefined,
    text: texts.join('\n'),
    fields: found === undefined ? undefined : (camelKeys(found) as Record<string, unknown>),
    haystack: [...texts, ...(structured ? [JSON.stringify(structured)] : [])].join('\n'),
  };
}

// ---------------------------------------------------------------- comparing values

/** Values protobuf's JSON mapping may leave out. */
const isDefault = (value: unknown): boolean =>
  value === undefined || value === '' || value === 0 || value === false || (Array.isArray(value) && value.length === 0);

/** A number written in text (`digits` `%`?), as the value it states and whether it states `want`: compared
 * at the precision written, rounded or cut (0.73 and 0.72 state 0.7251, 72.5 % states 0.725). */
function statedNumber(digits: string, percent: boolean, want: number, integer = false): { value: number; ok: boolean } {
  if (integer) return { value: Number(digits), ok: !percent && Number(digits) === want };
  const decimals = (digits.split('.')[1] ?? '').replace(/e.*/i, '').length + (percent ? 2 : 0);
  const value = percent ? Number(digits) / 100 : Number(digits);
  // One unit of the last digit written (a whole number: half of one).
  const unit = decimals === 0 ? 0.5 : 10 ** -decimals;
  return { value, ok: Math.abs(value - want) <= Math.max(unit, 1e-6 * Math.abs(want)) };
}

const NUMBER_TEXT = /^\s*(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*(%)?\s*$/i;

function boolOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  if (/^(true|yes|enabled|on)$/i.test(value.trim())) return true;
  if (/^(false|no|disabled|off)$/i.test(value.trim())) return false;
  return undefined;
}

/** Equal numbers: within float32 precision (float fields go through 32 bits on the wire). */
const sameNumber = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));

/** Equal as JSON values (numbers within float32 precision, a missing member equal to a default one). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return sameNumber(a, b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => (a[k] === undefined ? isDefault(b[k]) : b[k] === undefined ? isDefault(a[k]) : same(a[k], b[k])));
  }
  return a === b;
}

/** The same keys and array lengths at every level, and leaves alike by `leaf`. */
function sameTree(a: unknown, b: unknown, leaf: (a: unknown, b: unknown) => boolean): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameTree(x, b[i], leaf));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(b);
    return Object.keys(a).length === keys.length && keys.every((k) => k in a && sameTree(a[k], b[k], leaf));
  }
  return !Array.isArray(a) && !isObject(a) && !Array.isArray(b) && !isObject(b) && leaf(a, b);
}

/** Exactly equal JSON documents (a translated document: no member may go missing). */
const sameDocument = (a: unknown, b: unknown): boolean => sameTree(a, b, (x, y) => x === y);
/** The same document with other values. */
const sameShape = (a: unknown, b: unknown): boolean => sameTree(a, b, () => true);

const INTEGERS = new Set([ScalarType.INT32, ScalarType.INT64, ScalarType.UINT32, ScalarType.UINT64, ScalarType.SINT32, ScalarType.SINT64]);

type Kind = 'string' | 'document' | 'number' | 'bool' | 'strings' | 'messages' | 'other';

/** What kind of value a response field holds, from its descriptor. */
function kindOf(field: DescField, documents: readonly string[]): Kind {
  if (field.fieldKind === 'scalar') {
    if (field.scalar === ScalarType.STRING) return documents.includes(field.localName) ? 'document' : 'string';
    if (field.scalar === ScalarType.BOOL) return 'bool';
    if (field.scalar === ScalarType.BYTES) return 'other';
    return 'number';
  }
  if (field.fieldKind === 'list') {
    if (field.listKind === 'scalar' && field.scalar === ScalarType.STRING) return 'strings';
    if (field.listKind === 'message') return 'messages';
  }
  return 'other';
}

const parseDocument = (text: unknown): unknown => {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol('not JSON');
  }
};

/** A field's value in a response object against the RPC's: true when alike. */
function alike(kind: Kind, got: unknown, want: unknown, field: DescField): boolean {
  switch (kind) {
    case 'string':
      return got === want;
    case 'document':
      // JSON text (spacing may differ), or the document itself as a value.
      return sameDocument(parseDocument(got), parseDocument(want));
    case 'number': {
      // A JSON number too is compared at the precision written (a score rounded to 0.73).
      const m = typeof got === 'number' || typeof got === 'string' ? NUMBER_TEXT.exec(String(got)) : null;
      if (typeof got === 'number' && sameNumber(got, want as number)) return true;
      return m !== null && statedNumber(m[1]!, m[2] !== undefined, want as number, field.fieldKind === 'scalar' && INTEGERS.has(field.scalar)).ok;
    }
    case 'bool':
      return boolOf(got) === want;
    case 'strings': {
      const list = typeof got === 'string' ? got.split(/[\s,;]+/).filter(Boolean) : got;
      return Array.isArray(list) && same([...list].sort(), [...(want as string[])].sort());
    }
    case 'messages': {
      if (!Array.isArray(got) || !Array.isArray(want) || got.length !== want.length) return false;
      const inner = field.message!;
      return want.every((w, i) => {
        const g = camelKeys(got[i]);
        if (!isObject(g) || !isObject(w)) return false;
        return inner.fields.every((f) => {
          const value = g[f.jsonName];
          return value === undefined ? isDefault(w[f.jsonName]) : alike(kindOf(f, []), value, w[f.jsonName], f);
        });
      });
    }
    default:
      return true;
  }
}

// ---------------------------------------------------------------- finding values in text

/** Words a result may put beside a number or a yes/no, per response field (first the most telling). */
const WORDS: Record<string, RegExp[]> = {
  probability: [/probab/gi, /confiden/gi, /certaint/gi, /score/gi],
  stringsTranslated: [/strings?[\s_-]*translated|translated[\s_-]*strings?/gi, /strings?/gi, /translated/gi],
  sttAvailable: [/(?<![a-z])stt|speech[\s_-]*to[\s_-]*text|speech[\s_-]*recogni[sz]/gi],
  ttsAvailable: [/(?<![a-z])tts|text[\s_-]*to[\s_-]*speech|speech[\s_-]*synthes/gi],
};

/** The text with Markdown's backslash escapes undone. */
const unescapeMarkdown = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

const WORD_CHAR = /[\p{L}\p{N}_-]/u;

/** Whether `needle` occurs in `text` not as part of a longer word (a code `en` is not found in `eng`). */
function containsToken(text: string, needle: string): boolean {
  if (needle === '') return false;
  const bounded = (i: number): boolean => {
    const before = text[i - 1];
    const after = text[i + needle.length];
    const startsWord = WORD_CHAR.test(needle[0]!);
    const endsWord = WORD_CHAR.test(needle.at(-1)!);
    return (!startsWord || before === undefined || !WORD_CHAR.test(before)) && (!endsWord || after === undefined || !WORD_CHAR.test(after));
  };
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) if (bounded(i)) return true;
  return false;
}

/** Whether the answer states the string `value` (as written, or escaped as JSON or Markdown would). */
function states(answer: Answer, value: string): boolean {
  const texts = [answer.haystack, unescapeMarkdown(answer.haystack)];
  const json = JSON.stringify(value).slice(1, -1);
  // Also as an ASCII-only JSON writer puts it (Python's json.dumps: \u00f1).
  const ascii = json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const forms = [...new Set([value, json, ascii])];
  return texts.some((text) => forms.some((form) => containsToken(text, form)));
}

/** Every JSON object or array written in `text`, and the JSON documents held in their string values. */
function jsonValuesIn(text: string): unknown[] {
  const found: unknown[] = [];
  const visit = (value: unknown, depth: number): void => {
    found.push(value);
    if (depth > 3) return;
    const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    for (const child of children) {
      if (typeof child === 'string' && /^\s*[[{]/.test(child)) {
        const parsed = parseDocument(child);
        if (typeof parsed !== 'symbol') visit(parsed, depth + 1);
      } else if (child !== null && typeof child === 'object') visit(child, depth + 1);
    }
  };
  for (let start = 0; start < text.length; start++) {
    if (text[start] !== '{' && text[start] !== '[') continue;
    const end = balancedEnd(text, start);
    if (end === undefined) continue;
    const parsed = parseDocument(text.slice(start, end));
    if (typeof parsed === 'symbol') continue;
    visit(parsed, 0);
    start = end - 1;
  }
  return found;
}

/** The index after the bracket closing the one at `start` (strings skipped), if any. */
function balancedEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** What follows each match of `word` on its line (up to a separator), and what precedes it on its line. */
function besides(text: string, word: RegExp): { after: string; before: string }[] {
  const out: { after: string; before: string }[] = [];
  for (const m of text.matchAll(new RegExp(word.source, word.flags))) {
    // The rest of the word ("confiden" in "Confidence"), then what separates it from its value: spaces,
    // Markdown marks, a colon, a table cell's bar, quotes; the value may stand on the next line.
    let end = m.index + m[0].length;
    while (end < text.length && /[\p{L}_]/u.test(text[end]!)) end++;
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    const rest = text.slice(end, end + 80).replace(/^[ \t*_:|=>\-`"'()]*(\n[ \t*_:|=>\-`"'()]*)?/, '');
    const after = rest.split('\n')[0]!.split(/[,;|]|\s{3,}/)[0]!;
    out.push({ after, before: text.slice(Math.max(lineStart, m.index - 16), m.index) });
  }
  return out;
}

type Found = { found: false } | { found: true; ok: boolean; stated: string };

const NUMBER = /(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(\s*%)?/gi;

function numberInText(answer: Answer, field: string, want: number, integer: boolean): Found {
  const text = unescapeMarkdown(answer.haystack);
  for (const word of WORDS[field] ?? []) {
    const stated = besides(text, word).flatMap(({ after, before }) => {
      const next = [...after.matchAll(NUMBER)][0] ?? [...before.matchAll(NUMBER)].at(-1);
      return next ? [next] : [];
    });
    if (stated.length === 0) continue;
    const values = stated.map((m) => ({ ...statedNumber(m[1]!, m[2] !== undefined, want, integer), shown: m[0] }));
    return { found: true, ok: values.every((v) => v.ok), stated: values.map((v) => v.shown.trim()).join(', ') };
  }
  return { found: false };
}

const NO = /(?<![a-z])(no|false|disabled|unavailable|off|none|not[\s_-]*(available|enabled|configured|supported|active))(?![a-z])|❌|✗|✘|🚫/i;
const YES = /(?<![a-z])(yes|true|enabled|available|on|configured|supported|active)(?![a-z])|✅|✓|✔/i;

function boolInText(answer: Answer, field: string): boolean | 'both' | undefined {
  const text = unescapeMarkdown(answer.haystack);
  const decisions = new Set<boolean>();
  for (const word of WORDS[field] ?? []) {
    for (const { after, before } of besides(text, word)) {
      const mark = /(✅|✓|✔|❌|✗|✘|🚫)\s*\W{0,3}$/.exec(before)?.[1];
      if (NO.test(after) || (mark !== undefined && NO.test(mark))) decisions.add(false);
      else if (YES.test(after) || (mark !== undefined && YES.test(mark))) decisions.add(true);
    }
  }
  if (decisions.size === 2) return 'both';
  return decisions.size === 1 ? [...decisions][0] : undefined;
}

/** A field's value looked for in the answer's text. */
function inText(answer: Answer, kind: Kind, field: DescField, want: unknown, contrary: readonly string[]): Found {
  switch (kind) {
    case 'string': {
      if (states(answer, want as string)) return { found: true, ok: true, stated: want as string };
      const other = contrary.find((value) => states(answer, value));
      return other === undefined ? { found: false } : { found: true, ok: false, stated: other };
    }
    case 'document': {
      const wanted = parseDocument(want);
      const values = jsonValuesIn(answer.haystack);
      if (values.some((v) => sameDocument(v, wanted))) return { found: true, ok: true, stated: want as string };
      const other = values.find((v) => sameShape(v, wanted));
      return other === undefined ? { found: false } : { found: true, ok: false, stated: JSON.stringify(other) };
    }
    case 'number':
      return numberInText(answer, field.localName, want as number, field.fieldKind === 'scalar' && INTEGERS.has(field.scalar));
    case 'bool': {
      const stated = boolInText(answer, field.localName);
      if (stated === undefined) return { found: false };
      return { found: true, ok: stated === want, stated: stated === 'both' ? 'both yes and no' : String(stated) };
    }
    case 'strings': {
      const missing = (want as string[]).filter((value) => !states(answer, value));
      if (missing.length === (want as string[]).length) return { found: false };
      return { found: true, ok: missing.length === 0, stated: `all but ${missing.join(', ')}` };
    }
    case 'messages': {
      // The string members of each element (a segment's text); times and other numbers are not looked for.
      const strings = (want as Record<string, unknown>[]).flatMap((w) =>
        field.message!.fields.filter((f) => kindOf(f, []) === 'string' && w[f.jsonName] !== '').map((f) => w[f.jsonName] as string),
      );
      const missing = strings.filter((value) => !states(answer, value));
      if (strings.length === 0 || missing.length === strings.length) return { found: false };
      return { found: true, ok: missing.length === 0, stated: `all but ${missing.map((m) => JSON.stringify(m)).join(', ')}` };
    }
    default:
      return { found: true, ok: true, stated: '(not compared)' };
  }
}

export interface ReadOptions {
  /** The response fields to compare (lowerCamel names); default: all of them. */
  fields?: string[];
  /** String fields holding a JSON document, compared as the value they hold (default: `json`). */
  documents?: string[];
  /** Fields a text answer must state even when the RPC's value is a default (the case is about them). */
  stated?: string[];
  /** Per string field, other values whose presence in a text answer, where the RPC's value is not found,
   * shows that the tool reports something else (a native label where the BCP-47 tag belongs). */
  contrary?: Record<string, string[]>;
}

export interface Reading {
  /** `field: tool …, rpc …` for each field read and found different. */
  mismatches: string[];
  /** Fields whose value the answer does not show where the case can find it. */
  unreadable: string[];
}

/** Compares the answer with `expected`, the RPC's response in protobuf JSON with every field (rpcJson). */
export function read(answer: Answer, schema: DescMessage, expected: Record<string, unknown>, options: ReadOptions = {}): Reading {
  const reading: Reading = { mismatches: [], unreadable: [] };
  const documents = options.documents ?? ['json'];
  for (const field of schema.fields) {
    const name = field.jsonName;
    if (options.fields && !options.fields.includes(name)) continue;
    const kind = kindOf(field, documents);
    const want = expected[name];
    const got = answer.fields?.[name];
    if (got !== undefined) {
      if (!alike(kind, got, want, field)) reading.mismatches.push(`${name}: tool ${JSON.stringify(got)}, rpc ${JSON.stringify(want)}`);
      continue;
    }
    const stated = options.stated?.includes(name) ?? false;
    // Left out of a response object: a default may be (protobuf's JSON mapping does it).
    if (answer.fields !== undefined && isDefault(want)) continue;
    // A text answer, or an object that names the field otherwise: look for the value in the text. An empty
    // string or list cannot be looked for; a zero or a false may be stated (and then must be right).
    if (isDefault(want) && kind !== 'bool' && kind !== 'number' && !stated) continue;
    const found = inText(answer, kind, field, want, options.contrary?.[name] ?? []);
    if (!found.found) {
      if (isDefault(want) && !stated) continue;
      reading.unreadable.push(`${name} (rpc ${JSON.stringify(want)})`);
    } else if (!found.ok) reading.mismatches.push(`${name}: tool states ${found.stated}, rpc ${JSON.stringify(want)}`);
  }
  return reading;
}

/** The answer in one line, for messages. */
export function shown(answer: Answer): string {
  if (!answer.answered) return answer.text;
  const kind = answer.rpcError ? `JSON-RPC error ${answer.rpcError.code}` : answer.toolError ? 'tool error' : 'result';
  const body = answer.fields !== undefined ? JSON.stringify(answer.fields) : answer.text;
  return `${kind}: ${body.length > 600 ? `${body.slice(0, 600)}…` : body}`;
}

/**
 * Judges a tool's answer against the RPC's `expected` response: it must be a success, and every value read
 * from it must be the RPC's. A value the case cannot find in the answer ends the case as `error` (it could
 * not judge), naming the fields and showing the answer. Returns whether the answer passed.
 */
export function judge(
  t: ExecutionContext,
  c: CaseContext,
  answer: Answer,
  schema: DescMessage,
  expected: Record<string, unknown>,
  options: ReadOptions & { label?: string } = {},
): boolean {
  const label = options.label ? `${options.label}: ` : '';
  if (!t.true(answer.ok, `${label}${shown(answer)}`)) return false;
  const { mismatches, unreadable } = read(answer, schema, expected, options);
  if (!t.deepEqual(mismatches, [], `${label}the tool answers otherwise than the RPC: ${shown(answer)}`)) return false;
  if (unreadable.length > 0) {
    c.inconclusive(
      `${label}the case could not find ${unreadable.join(', ')} in the tool's answer (a result's form is not specified: ` +
        `values are read from a JSON object or from text stating them): ${shown(answer)}`,
    );
  }
  return true;
}

/** An RPC's response in protobuf JSON with every field (what a tool answer is compared with); throws with
 * the status when the RPC failed (use inside `c.need`). */
export function rpcJson<D extends DescMessage>(schema: D, outcome: GrpcOutcome<MessageShape<D>>): Record<string, unknown> {
  if (!outcome.response) throw new Error(`the RPC itself failed: ${outcome.codeName}: ${outcome.message}`);
  return toJson(schema, outcome.response, { alwaysEmitImplicit: true }) as Record<string, unknown>;
}
