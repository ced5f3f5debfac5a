// How the cases put an RPC's fields into a route's HTTP request. The document shows no bodies ("JSON bodies of
// these routes: not shown"), so a gateway's own design is declared in its target description under `bodies`;
// without one, a request is the route's message in the protobuf JSON mapping (lowerCamel names, bytes as
// base64), the usual HTTP/JSON form of a gRPC request and the reference's design.
//
//   "bodies": {
//     "names": "json" | "proto",                        (default field names: lowerCamel or proto snake_case)
//     "bytes": "base64" | "base64url" | "hex",          (bytes fields inside a JSON body)
//     "routes": {
//       "<route>": {
//         "encoding": "json" | "form" | "multipart" | "audio",
//                       (form: urlencoded, bytes as in JSON; audio: the WAV is the body, other fields in the query)
//         "fields": { "<rpc field>": "<JSON path a.b | part | query name>" | null (not sent) },
//         "jsonText": "string" | "object",              (localize: JSON-holding fields as text or as a value)
//         "bytes": …, "contentType": "<of a json or audio body>", "extra": { "<location>": <constant> }
//       } } }
import { type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import type { HttpRequest } from '../harness/http-client.ts';
import type { Route } from './target.ts';

export type Encoding = 'json' | 'form' | 'multipart' | 'audio';
export type BytesForm = 'base64' | 'base64url' | 'hex';

export interface RouteBody {
  encoding: Encoding;
  /** Per RPC field (proto or JSON name): where it goes; null: the gateway takes no such input. */
  fields: Record<string, string | null>;
  names: 'json' | 'proto';
  bytes: BytesForm;
  jsonText: 'string' | 'object';
  /** Content-Type of a json body (default application/json) or an audio one (default audio/wav). */
  contentType: string;
  /** Constant values the gateway needs besides the RPC's fields, by location. */
  extra: Record<string, unknown>;
}

/** Fields of the RPC request as the cases give them: protobuf-es local names, bytes as Uint8Array. */
export type RpcFields = Record<string, string | number | boolean | Uint8Array>;

const ENCODINGS: readonly Encoding[] = ['json', 'form', 'multipart', 'audio'];
const BYTES: readonly BytesForm[] = ['base64', 'base64url', 'hex'];
/** Fields of TranslateLocalizationRequest whose string holds JSON text. */
const JSON_TEXT_FIELDS = new Set(['json', 'existing_translation', 'context']);

class DescriptionError extends Error {
  override name = 'DescriptionError';
}

function oneOf<T extends string>(where: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw new DescriptionError(`target description: ${where} is ${JSON.stringify(value)}; expected one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function object(where: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DescriptionError(`target description: ${where} must be an object`);
  return value as Record<string, unknown>;
}

/** The body design of route `name` from the description's `bodies` (throws DescriptionError when malformed). */
export function routeBody(bodies: unknown, name: string, routeNames: readonly string[]): RouteBody {
  const top = object('"bodies"', bodies);
  const routes = object('"bodies.routes"', top.routes);
  const unknown = Object.keys(routes).filter((r) => !routeNames.includes(r));
  if (unknown.length > 0) throw new DescriptionError(`target description: "bodies.routes" names no route ${unknown.join(', ')} (routes: ${routeNames.join(', ')})`);
  const own = object(`"bodies.routes.${name}"`, routes[name]);
  const fields = object(`"bodies.routes.${name}.fields"`, own.fields);
  for (const [field, place] of Object.entries(fields)) {
    if (place !== null && (typeof place !== 'string' || place === '')) {
      throw new DescriptionError(`target description: "bodies.routes.${name}.fields.${field}" must be a name or null`);
    }
  }
  const encoding = oneOf(`"bodies.routes.${name}.encoding"`, own.encoding, ENCODINGS, 'json');
  const contentType = own.contentType ?? (encoding === 'audio' ? 'audio/wav' : 'application/json');
  if (typeof contentType !== 'string') throw new DescriptionError(`target description: "bodies.routes.${name}.contentType" must be a string`);
  return {
    encoding,
    fields: fields as Record<string, string | null>,
    names: oneOf('"bodies.names"', top.names, ['json', 'proto'] as const, 'json'),
    bytes: oneOf(`"bodies.routes.${name}.bytes"`, own.bytes, BYTES, oneOf('"bodies.bytes"', top.bytes, BYTES, 'base64')),
    jsonText: oneOf(`"bodies.routes.${name}.jsonText"`, own.jsonText, ['string', 'object'] as const, 'string'),
    contentType,
    extra: object(`"bodies.routes.${name}.extra"`, own.extra),
  };
}

export function encodeBytes(bytes: Uint8Array, form: BytesForm): string {
  const buffer = Buffer.from(bytes);
  return form === 'hex' ? buffer.toString('hex') : form === 'base64url' ? buffer.toString('base64url') : buffer.toString('base64');
}

function fieldOf(schema: DescMessage, localName: string): DescField {
  const field = schema.fields.find((f) => f.localName === localName);
  if (!field) throw new Error(`${schema.typeName} has no field ${localName}`);
  return field;
}

const isBytes = (field: DescField): boolean => field.fieldKind === 'scalar' && field.scalar === ScalarType.BYTES;

/** Where `field` goes (undefined: not sent). */
function placeOf(body: RouteBody, field: DescField): string | undefined {
  for (const key of [field.name, field.jsonName]) {
    if (key in body.fields) return body.fields[key] ?? undefined;
  }
  return body.names === 'proto' ? field.name : field.jsonName;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = target;
  for (const key of keys.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1)!] = value;
}

function multipart(parts: { name: string; value: string | Uint8Array; type?: string }[]): { body: Buffer; contentType: string } {
  const boundary = `----conform-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = typeof part.value !== 'string' ? `; filename="${part.name}.wav"` : '';
    const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}${type}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The HTTP request of route `r` carrying `fields`, in the design `body`. */
export function encodeRequest(r: Route, body: RouteBody, fields: RpcFields): HttpRequest {
  if (r.method === 'GET') return { method: 'GET', path: r.path };
  const schema = r.rpc.input as DescMessage;
  const placed = Object.entries(fields).flatMap(([name, value]) => {
    const field = fieldOf(schema, name);
    const place = placeOf(body, field);
    return place === undefined ? [] : [{ field, place, value }];
  });
  const textOf = (value: RpcFields[string]): string => (value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : String(value));
  if (body.encoding === 'audio') {
    const audio = placed.find(({ field }) => isBytes(field));
    const query = new URLSearchParams();
    for (const { field, place, value } of placed) if (!isBytes(field)) query.append(place, textOf(value));
    for (const [place, value] of Object.entries(body.extra)) query.append(place, String(value));
    const search = query.size > 0 ? `?${query}` : '';
    return { method: 'POST', path: `${r.path}${search}`, headers: { 'content-type': body.contentType }, body: audio ? (audio.value as Uint8Array) : new Uint8Array(0) };
  }
  if (body.encoding === 'form') {
    const form = new URLSearchParams();
    for (const { place, value } of placed) form.append(place, value instanceof Uint8Array ? encodeBytes(value, body.bytes) : String(value));
    for (const [place, value] of Object.entries(body.extra)) form.append(place, String(value));
    return { method: 'POST', path: r.path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() };
  }
  if (body.encoding === 'multipart') {
    const parts = placed.map(({ field, place, value }) => (isBytes(field) ? { name: place, value: value as Uint8Array, type: 'audio/wav' } : { name: place, value: textOf(value) }));
    for (const [place, value] of Object.entries(body.extra)) parts.push({ name: place, value: String(value) });
    const { body: bytes, contentType } = multipart(parts);
    return { method: 'POST', path: r.path, headers: { 'content-type': contentType }, body: bytes };
  }
  const json: Record<string, unknown> = {};
  for (const [place, value] of Object.entries(body.extra)) setPath(json, place, value);
  for (const { field, place, value } of placed) {
    let out: unknown = value;
    if (value instanceof Uint8Array) out = encodeBytes(value, body.bytes);
    else if (body.jsonText === 'object' && r.rpc.input.typeName.endsWith('TranslateLocalizationRequest') && JSON_TEXT_FIELDS.has(field.name)) out = JSON.parse(String(value));
    setPath(json, place, out);
  }
  return { method: 'POST', path: r.path, headers: { 'content-type': body.contentType }, body: JSON.stringify(json) };
}
