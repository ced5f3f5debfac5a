// JSON request bodies → request messages: proto field names renamed to their JSON names, then validated
// against the OpenAPI document's own schemas (ajv), then read with the protobuf JSON mapping. Any refusal
// is a 400 INVALID_ARGUMENT naming the field.
import { type DescMessage, fromJson, type JsonValue, type MessageShape } from '@bufbuild/protobuf';
import { status } from '@grpc/grpc-js';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { GatewayError } from './gateway-error.ts';
import { type OpenApiDocument, schemaRef } from './openapi.ts';

const DOCUMENT_ID = 'openapi.json';

/** Standard or URL-safe alphabet, padding optional, as the protobuf JSON mapping accepts. */
export function isBase64(text: string): boolean {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return false;
  const data = text.replace(/=+$/, '').length;
  if (data % 4 === 1) return false;
  return data === text.length || text.length % 4 === 0;
}

const invalid = (message: string, cause?: unknown) => new GatewayError(status.INVALID_ARGUMENT, message, { cause });

const ARTICLE: Record<string, string> = { string: 'a string', number: 'a number', integer: 'an integer', boolean: 'true or false', object: 'an object', array: 'an array' };

function describe(error: ErrorObject): string {
  const field = error.instancePath.slice(1).replaceAll('/', '.');
  const subject = field === '' ? 'the body' : `field "${field}"`;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown field "${[field, error.params.additionalProperty].filter(Boolean).join('.')}"`;
    case 'type':
      return `${subject} must be ${ARTICLE[String(error.params.type)] ?? error.params.type}`;
    case 'format':
      return `${subject} is not valid base64`;
    default:
      return `${subject} ${error.message}`;
  }
}

export class RequestDecoder {
  readonly #validators = new Map<DescMessage, ValidateFunction>();

  constructor(document: OpenApiDocument, messages: readonly DescMessage[]) {
    const ajv = new Ajv2020({ strict: true, allErrors: false, formats: { byte: { type: 'string', validate: isBase64 } } });
    // The document's top-level keys are OpenAPI's, not JSON Schema's: known, so strict mode accepts them.
    ajv.addVocabulary(Object.keys(document));
    ajv.addSchema(document, DOCUMENT_ID);
    for (const message of messages) this.#validators.set(message, ajv.getSchema(DOCUMENT_ID + schemaRef(message))!);
  }

  decode<I extends DescMessage>(message: I, body: unknown): MessageShape<I> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the body must be a JSON object');
    const json = renameProtoNames(message, body as Record<string, unknown>);
    const validate = this.#validators.get(message)!;
    if (!validate(json)) throw invalid(describe(validate.errors![0]!));
    try {
      return fromJson(message, json as JsonValue);
    } catch (err) {
      // The schemas catch what the mapping refuses; this is the backstop.
      throw invalid((err as Error).message, err);
    }
  }
}

/** `source_language` → `sourceLanguage` (the mapping accepts both); giving both is refused. */
function renameProtoNames(message: DescMessage, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const field of message.fields) {
    if (field.name === field.jsonName || !Object.hasOwn(body, field.name)) continue;
    if (Object.hasOwn(body, field.jsonName)) throw invalid(`field "${field.jsonName}" is given twice (also as "${field.name}")`);
    out[field.jsonName] = body[field.name];
    delete out[field.name];
  }
  return out;
}
