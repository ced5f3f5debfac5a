// The OpenAPI 3.1 document served at GET /api/openapi.json (catalog translate-web/routes/openapi), built once
// from the route table and the message descriptors; the request validator compiles the same schemas.
import type { DescMessage } from '@bufbuild/protobuf';
import { status } from '@grpc/grpc-js';
import { MAX_BODY_BYTES } from './gateway-options.ts';
import { messageSchema, nestedMessages } from './message-schema.ts';
import { OPENAPI_PATH, ROUTES, type Route } from './routes.ts';
import { codeName, GRPC_CODES } from './status-map.ts';

export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Record<string, unknown>>; responses: Record<string, unknown> };
};

export const schemaRef = (message: DescMessage): string => `#/components/schemas/${message.name}`;

/** Notes the descriptors do not carry (they hold no comments), keyed by `Message.jsonName`. */
const FIELD_NOTES: Record<string, string> = {
  'TranslateTextRequest.sourceLanguage': 'BCP-47 code; empty or "auto" detects the source language.',
  'TranslateTextRequest.model': 'A configured model key; empty selects the default model.',
  'TranslateTextResponse.detectedLanguage': 'Set only when the source language was detected.',
  'TranslateLocalizationRequest.json': 'The localization file as JSON text (a string, not a nested object).',
  'TranslateLocalizationRequest.existingTranslation': 'JSON text of the same shape whose matching values are reused.',
  'TranslateLocalizationRequest.context': 'JSON text of the same shape with a hint per key.',
  'TranslateLocalizationResponse.json': 'The translated file as JSON text.',
  'TranscribeAudioRequest.audioData': 'A WAV file (at most 50 MB), base64.',
  'TranslateAudioRequest.audioData': 'A WAV file (at most 50 MB), base64.',
  'TranslateAudioResponse.translatedAudio': 'A WAV file (16-bit PCM), base64.',
  'SynthesizeSpeechResponse.audioData': 'A WAV file (16-bit PCM), base64.',
  'SynthesizeSpeechRequest.speed': 'Rate multiplier: 1.0 normal, 0.5 half, 2.0 double.',
};

const LANGUAGE_FORMAT_NOTE = 'Empty or "bcp47" (the default), or "native" for the model\'s own codes.';

function annotate(message: DescMessage, schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  for (const [name, property] of Object.entries(properties)) {
    const note = name === 'languageFormat' ? LANGUAGE_FORMAT_NOTE : FIELD_NOTES[`${message.name}.${name}`];
    if (note !== undefined) property.description = note;
  }
  return schema;
}

const ERROR_SCHEMA = {
  type: 'object',
  title: 'Error',
  description: 'The body of every non-2xx answer. For gRPC failures `message` is the status message unchanged.',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', enum: GRPC_CODES.filter((code) => code !== status.OK).map(codeName), description: 'The gRPC status code name.' },
        message: { type: 'string' },
      },
      required: ['code', 'message'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function operation(route: Route): Record<string, unknown> {
  const deadline = typeof route.deadline === 'number' ? `${route.deadline / 1000} s` : `${route.deadline} milliseconds (none when unset)`;
  const errors: Record<string, unknown> =
    route.method === 'POST'
      ? {
          '400': { $ref: '#/components/responses/BadRequest' },
          '413': { $ref: '#/components/responses/TooLarge' },
          '415': { $ref: '#/components/responses/UnsupportedMediaType' },
        }
      : {};
  return {
    operationId: route.rpc.localName,
    summary: route.summary,
    description: `Calls TranslateService.${route.rpc.name} with a deadline of ${deadline}.`,
    ...(route.method === 'POST'
      ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: schemaRef(route.rpc.input) } } } } }
      : {}),
    responses: {
      '200': { description: `${route.rpc.output.name} in the protobuf JSON mapping`, content: { 'application/json': { schema: { $ref: schemaRef(route.rpc.output) } } } },
      ...errors,
      '503': { $ref: '#/components/responses/Unavailable' },
      '504': { $ref: '#/components/responses/DeadlineExceeded' },
      default: { $ref: '#/components/responses/Error' },
    },
  };
}

export function buildOpenApiDocument(): OpenApiDocument {
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    if (route.method === 'POST') schemas[route.rpc.input.name] = annotate(route.rpc.input, messageSchema(route.rpc.input, 'request', schemaRef));
    schemas[route.rpc.output.name] = annotate(route.rpc.output, messageSchema(route.rpc.output, 'response', schemaRef));
    for (const nested of nestedMessages(route.rpc.output)) schemas[nested.name] = messageSchema(nested, 'response', schemaRef);
  }
  schemas.Error = ERROR_SCHEMA;
  const paths: OpenApiDocument['paths'] = {};
  for (const route of ROUTES) paths[route.path] = { [route.method.toLowerCase()]: operation(route) };
  paths[OPENAPI_PATH] = {
    get: { operationId: 'openApi', summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': {} } } } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Translation web gateway',
      version: '1.0.0',
      description:
        'HTTP front of vendor.translate.v1.TranslateService. Bodies use the protobuf JSON mapping: lowerCamel names ' +
        '(proto field names are accepted in requests too), bytes as base64, omitted request fields take proto3 defaults; ' +
        'responses include every field. Errors: gRPC INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE → 400; ' +
        'UNAUTHENTICATED 401; PERMISSION_DENIED 403; NOT_FOUND 404; ALREADY_EXISTS, ABORTED 409; RESOURCE_EXHAUSTED 413; ' +
        'CANCELLED 499; UNKNOWN, INTERNAL, DATA_LOSS 500; UNIMPLEMENTED 501; UNAVAILABLE 503; DEADLINE_EXCEEDED 504.',
    },
    paths,
    components: {
      schemas,
      responses: {
        Error: errorResponse('Any other failure'),
        BadRequest: errorResponse('INVALID_ARGUMENT: invalid JSON, a non-object body, a field of the wrong type, an unknown field or invalid base64; or the service refused the request (also FAILED_PRECONDITION, OUT_OF_RANGE)'),
        TooLarge: errorResponse(`RESOURCE_EXHAUSTED: the body is above ${MAX_BODY_BYTES / 2 ** 20} MiB`),
        UnsupportedMediaType: errorResponse('INVALID_ARGUMENT: the body is not application/json'),
        Unavailable: errorResponse('UNAVAILABLE: the translation service cannot be reached'),
        DeadlineExceeded: errorResponse("DEADLINE_EXCEEDED: the route's deadline passed"),
      },
    },
  };
}
