// Small builders of the JSON Schemas (2020-12, OpenAPI 3.1's dialect) the OpenAPI document is written with.

export type JsonObject = { [key: string]: unknown };

/** A reference to components.schemas[name]. */
export const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

export const string = (extra: JsonObject = {}): JsonObject => ({ type: 'string', ...extra });

export const integer = (minimum: number, maximum?: number, extra: JsonObject = {}): JsonObject => ({
  type: 'integer',
  minimum,
  ...(maximum === undefined ? {} : { maximum }),
  ...extra,
});

export const dateTime = string({ format: 'date-time' });

/** The schema, or null (its `type` becomes a pair; an enum gains null). */
export function nullable(schema: JsonObject): JsonObject {
  if (Array.isArray(schema['enum'])) return { ...schema, enum: [...schema['enum'], null] };
  return { ...schema, type: [schema['type'], 'null'] };
}

/** An object of `properties`, every one required unless `required` says otherwise; `closed`: no other keys. */
export function object(properties: JsonObject, required: readonly string[] = Object.keys(properties), closed = false): JsonObject {
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

export const arrayOf = (items: JsonObject, extra: JsonObject = {}): JsonObject => ({ type: 'array', items, ...extra });
