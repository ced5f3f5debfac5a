// JSON Schemas (2020-12, as OpenAPI 3.1 uses) of protobuf messages in the protobuf JSON mapping, derived
// from the generated descriptors so the HTTP bodies cannot drift from the .proto.
import { type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';

export type JsonSchema = Record<string, unknown>;

const INT32 = { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
/** float32's largest finite value; the JSON mapping refuses anything beyond. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** `byte` is OpenAPI's format for base64; the gateway's validator implements it (request-decoder.ts). */
export const BASE64_STRING = { type: 'string', format: 'byte', contentEncoding: 'base64' };

function scalarSchema(scalar: ScalarType, field: DescField): JsonSchema {
  switch (scalar) {
    case ScalarType.STRING:
      return { type: 'string' };
    case ScalarType.BOOL:
      return { type: 'boolean' };
    case ScalarType.INT32:
      return { ...INT32 };
    case ScalarType.FLOAT:
      return { type: 'number', minimum: -FLOAT32_MAX, maximum: FLOAT32_MAX };
    case ScalarType.BYTES:
      return { ...BASE64_STRING };
    default:
      // The service uses none of the others; refusing at start-up beats a schema that is silently wrong.
      throw new Error(`${field.parent.typeName}.${field.name}: scalar type ${ScalarType[scalar]} has no JSON schema here`);
  }
}

function fieldSchema(field: DescField, ref: (message: DescMessage) => string): JsonSchema {
  switch (field.fieldKind) {
    case 'scalar':
      return scalarSchema(field.scalar, field);
    case 'message':
      return { $ref: ref(field.message) };
    case 'list':
      if (field.listKind === 'scalar') return { type: 'array', items: scalarSchema(field.scalar, field) };
      if (field.listKind === 'message') return { type: 'array', items: { $ref: ref(field.message) } };
      break;
  }
  throw new Error(`${field.parent.typeName}.${field.name}: ${field.fieldKind} fields have no JSON schema here`);
}

/**
 * `direction: 'request'`: every field optional (proto3 defaults), lowerCamel names, no other keys.
 * `direction: 'response'`: every field present, since the gateway emits default values too.
 */
export function messageSchema(message: DescMessage, direction: 'request' | 'response', ref: (message: DescMessage) => string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of message.fields) properties[field.jsonName] = fieldSchema(field, ref);
  return {
    type: 'object',
    title: message.name,
    properties,
    ...(direction === 'response' ? { required: message.fields.map((field) => field.jsonName) } : {}),
    additionalProperties: false,
  };
}

/** The messages a field of `message` refers to, transitively (TranscriptionSegment for TranscribeAudioResponse). */
export function nestedMessages(message: DescMessage): DescMessage[] {
  const found: DescMessage[] = [];
  const visit = (desc: DescMessage): void => {
    for (const field of desc.fields) {
      if (field.message && !found.includes(field.message)) {
        found.push(field.message);
        visit(field.message);
      }
    }
  };
  visit(message);
  return found;
}
