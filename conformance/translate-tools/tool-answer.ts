// Reading a tool call's outcome. The form of a successful result is not specified
// (translate-tools/tools/result-format), so the must cases accept each of these: the RPC response as an object
// in `structuredContent` or as a JSON object in a text item, its field names in lowerCamelCase or snake_case
// (the two spellings protobuf's JSON mapping reads); and for a string value, a result without any JSON object
// whose text contains it. A failure is a result with `isError: true` or a JSON-RPC error.
import { type DescMessage, type MessageShape, toJson } from '@bufbuild/protobuf';
import type { GrpcOutcome } from '../harness/grpc-client.ts';
import type { ToolOutcome } from '../harness/mcp-client.ts';

export interface Answer {
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
}

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());

function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelKeys(v)]));
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function answerOf(outcome: ToolOutcome): Answer {
  if (outcome.error) return { ok: false, toolError: false, rpcError: outcome.error, text: outcome.error.message, fields: undefined };
  const { result } = outcome;
  const texts = result.content.flatMap((item) => (item.type === 'text' ? [item.text] : []));
  const structured = isObject(result.structuredContent) ? result.structuredContent : undefined;
  const fromText = texts.map(parseObject).find((o) => o !== undefined);
  const found = structured ?? fromText;
  return {
    ok: result.isError !== true,
    toolError: result.isError === true,
    rpcError: undefined,
    text: texts.join('\n'),
    fields: found === undefined ? undefined : (camelKeys(found) as Record<string, unknown>),
  };
}

/** Values protobuf's JSON mapping may leave out. */
const isDefault = (value: unknown): boolean => value === '' || value === 0 || value === false || (Array.isArray(value) && value.length === 0);

/** Equal as JSON values, numbers within float32 precision (float fields go through 32 bits on the wire). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => (a[k] === undefined ? isDefault(b[k]) : b[k] === undefined ? isDefault(a[k]) : same(a[k], b[k])));
  }
  return a === b;
}

/** Whether the answer reports `expected` as `field` (lowerCamel name): equal in the response object (absent
 * counts as a default value), or for a string, contained in the text of a result without a response object. */
export function reports(answer: Answer, field: string, expected: unknown): boolean {
  if (!answer.ok) return false;
  if (answer.fields !== undefined) {
    const value = answer.fields[field];
    return value === undefined ? isDefault(expected) : same(value, expected);
  }
  return typeof expected === 'string' && expected !== '' && answer.text.includes(expected);
}

/** The fields of `expected` (an RPC response in protobuf JSON) the answer does not report alike, as
 * `field: tool …, rpc …` lines. `fields` limits the comparison; `parseJson` names string fields holding JSON
 * text, compared as the values they hold. */
export function mismatches(answer: Answer, expected: Record<string, unknown>, options: { fields?: string[]; parseJson?: string[] } = {}): string[] {
  const out: string[] = [];
  for (const field of options.fields ?? Object.keys(expected)) {
    const want = expected[field];
    const got = answer.fields?.[field];
    const ok =
      options.parseJson?.includes(field) && typeof got === 'string' && typeof want === 'string'
        ? answer.ok && same(JSON.parse(got), JSON.parse(want))
        : reports(answer, field, want);
    if (!ok) out.push(`${field}: tool ${got === undefined ? '(absent)' : JSON.stringify(got)}, rpc ${JSON.stringify(want)}`);
  }
  return out;
}

/** The answer in one line, for assertion messages. */
export function shown(answer: Answer): string {
  const kind = answer.rpcError ? `JSON-RPC error ${answer.rpcError.code}` : answer.toolError ? 'tool error' : 'result';
  const body = answer.fields !== undefined ? JSON.stringify(answer.fields) : answer.text;
  return `${kind}: ${body.length > 600 ? `${body.slice(0, 600)}…` : body}`;
}

/** An RPC's response in protobuf JSON with every field (what a tool answer is compared with); throws with
 * the status when the RPC failed. */
export function rpcJson<D extends DescMessage>(schema: D, outcome: GrpcOutcome<MessageShape<D>>): Record<string, unknown> {
  if (!outcome.response) throw new Error(`the RPC itself failed: ${outcome.codeName}: ${outcome.message}`);
  return toJson(schema, outcome.response, { alwaysEmitImplicit: true }) as Record<string, unknown>;
}
