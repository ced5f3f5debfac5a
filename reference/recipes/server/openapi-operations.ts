// Builds the OpenAPI operation objects from a short description, so each endpoint states only what is its own:
// who may call it (which adds its 401/403 answers and its security), its body (JSON bodies add 400, 413 and 415),
// its success and its other error answers. Every error answer has the server's one error body.
import { type JsonObject, ref } from './openapi-json-schema.ts';
import { PHOTO_MEDIA_TYPES } from './openapi-recipe-schemas.ts';

/** public: no token; optional: a token widens what is seen; bearer: a valid token; admin: an active admin's. */
export type Access = 'public' | 'optional' | 'bearer' | 'admin';

export interface OperationSpec {
  readonly id: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  /** Names of components.parameters. */
  readonly parameters?: readonly string[];
  /** A JSON body (schema name); `optional` when it may be left out. */
  readonly body?: { readonly schema: string; readonly optional?: boolean };
  /** A multipart/form-data body (schema name). */
  readonly multipart?: string;
  readonly success: {
    readonly status: 200 | 201 | 204 | 304;
    readonly description: string;
    /** A schema name, or an inline schema. */
    readonly schema?: string | JsonObject;
    /** Content type of the success body; default application/json. */
    readonly media?: string;
    readonly headers?: JsonObject;
  };
  /** Status → when it is answered. */
  readonly errors?: Readonly<Partial<Record<400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502, string>>>;
  /** The operation writes to the data file (or the photo folder): it may answer 507 and 503 (storage-errors.ts). */
  readonly writes?: boolean;
}

const errorBody = { 'application/json': { schema: ref('Error') } };
const errorAnswer = (description: string): JsonObject => ({ description, content: errorBody });
const BEARER = [{ bearerAuth: [] }];

const SECURITY: Readonly<Record<Access, readonly JsonObject[]>> = {
  public: [],
  // An empty requirement makes the token optional.
  optional: [{}, ...BEARER],
  bearer: BEARER,
  admin: BEARER,
};

function unauthorized(): JsonObject {
  return {
    description: 'No token ("Authentication required"), or one that is malformed, badly signed, expired, or of a deleted or disabled user ("Invalid or expired token").',
    headers: { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } },
    content: errorBody,
  };
}

export function operation(spec: OperationSpec): JsonObject {
  const { success } = spec;
  const ok: JsonObject = { description: success.description };
  if (success.headers !== undefined) ok['headers'] = success.headers;
  if (success.schema !== undefined) {
    const schema = typeof success.schema === 'string' ? ref(success.schema) : success.schema;
    ok['content'] = { [success.media ?? 'application/json']: { schema } };
  }
  const responses: Record<string, JsonObject> = { [String(success.status)]: ok };
  const errors: Record<number, string | undefined> = { ...spec.errors };
  if (spec.body !== undefined) {
    errors[400] ??= 'Invalid input: the body is not a JSON object, or fields are at fault (details names each).';
    errors[413] ??= 'The body is larger than 1 MiB.';
    errors[415] = 'The body is not JSON.';
  }
  if (spec.writes) {
    errors[503] = 'Not saved, nothing changed: the data folder is read-only or may not be written, or the server is stopping.';
    errors[507] = "Not saved, nothing changed: the server's disk is full (or its disk quota exhausted).";
  }
  if (spec.access === 'bearer' || spec.access === 'admin') responses['401'] = unauthorized();
  if (spec.access === 'admin') errors[403] = 'The caller is not an active admin ("Admin access required").';
  for (const status of Object.keys(errors).map(Number).sort()) responses[String(status)] = errorAnswer(errors[status]!);

  const op: JsonObject = {
    operationId: spec.id,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    security: SECURITY[spec.access],
  };
  if (spec.parameters !== undefined) op['parameters'] = spec.parameters.map((name) => ({ $ref: `#/components/parameters/${name}` }));
  if (spec.body !== undefined) {
    op['requestBody'] = { required: !spec.body.optional, content: { 'application/json': { schema: ref(spec.body.schema) } } };
  }
  if (spec.multipart !== undefined) {
    op['requestBody'] = {
      required: true,
      content: { 'multipart/form-data': { schema: ref(spec.multipart), encoding: { photo: { contentType: PHOTO_MEDIA_TYPES } } } },
    };
  }
  op['responses'] = responses;
  return op;
}
