// The body designs of the permitted-variant gateway: how an HTTP request becomes the RPC's request message and
// the RPC's response becomes the HTTP answer. `proto`: the protobuf JSON mapping (lowerCamel, base64, every
// field); `snake`: the same messages with proto field names only and base64url bytes; `rest`: a design of its
// own (variant-web-rest.json declares its requests to the suite): renamed fields, a form for detect, the
// localization file as a JSON value, multipart and raw audio, speech as audio/wav, transcriptions as text.
import { create, type DescMessage, fromJson, type JsonObject, type JsonValue, type MessageShape, toJson } from '@bufbuild/protobuf';
import busboy from 'busboy';

export type RouteName = 'capabilities' | 'translate' | 'detect' | 'localize' | 'transcribe' | 'translate-audio' | 'synthesize';
export type DesignName = 'proto' | 'snake' | 'rest';

export interface Incoming {
  contentType: string;
  body: Buffer;
  query: URLSearchParams;
}

export interface Outgoing {
  headers: Record<string, string>;
  body: string | Buffer;
}

/** A request the design cannot read: answered with `httpStatus`, no call made. */
export class BodyError extends Error {
  readonly httpStatus: number;

  constructor(httpStatus: number, message: string) {
    super(message);
    this.name = 'BodyError';
    this.httpStatus = httpStatus;
  }
}

export interface BodyDesign {
  decode(route: RouteName, schema: DescMessage, incoming: Incoming): Promise<MessageShape<DescMessage>>;
  encode(route: RouteName, schema: DescMessage, response: MessageShape<DescMessage>): Outgoing;
}

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

function jsonObject(incoming: Incoming): JsonObject {
  if (!/^application\/json\b/i.test(incoming.contentType)) throw new BodyError(415, `expected application/json, got ${incoming.contentType || 'no Content-Type'}`);
  let value: unknown;
  try {
    value = JSON.parse(incoming.body.toString('utf8') || '{}');
  } catch (err) {
    throw new BodyError(400, `the body is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BodyError(400, 'the body must be a JSON object');
  return value as JsonObject;
}

function message(schema: DescMessage, json: JsonValue): MessageShape<DescMessage> {
  try {
    return fromJson(schema, json);
  } catch (err) {
    throw new BodyError(400, (err as Error).message);
  }
}

const proto: BodyDesign = {
  async decode(route, schema, incoming) {
    return route === 'capabilities' ? create(schema) : message(schema, jsonObject(incoming));
  },
  encode(_route, schema, response) {
    return { headers: JSON_TYPE, body: JSON.stringify(toJson(schema, response, { alwaysEmitImplicit: true })) };
  },
};

const bytesFields = (schema: DescMessage) => schema.fields.filter((f) => f.fieldKind === 'scalar' && f.scalar === 12);

const snake: BodyDesign = {
  async decode(route, schema, incoming) {
    if (route === 'capabilities') return create(schema);
    const json = jsonObject(incoming);
    const camel = Object.keys(json).filter((key) => schema.fields.some((f) => f.jsonName === key && f.name !== key));
    if (camel.length > 0) throw new BodyError(400, `unknown fields ${camel.join(', ')} (fields are snake_case)`);
    return message(schema, json);
  },
  encode(_route, schema, response) {
    const json = toJson(schema, response, { alwaysEmitImplicit: true, useProtoFieldName: true }) as JsonObject;
    for (const field of bytesFields(schema)) json[field.name] = Buffer.from(String(json[field.name]), 'base64').toString('base64url');
    return { headers: JSON_TYPE, body: JSON.stringify(json) };
  },
};

// ---------------------------------------------------------------- rest

function text(json: JsonObject, key: string): string {
  const value = json[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new BodyError(400, `"${key}" must be a string`);
  return value;
}

function jsonText(json: JsonObject, key: string): string {
  const value = json[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') throw new BodyError(400, `"${key}" must be a JSON object or array`);
  return JSON.stringify(value);
}

function upload(incoming: Incoming): Promise<{ files: Map<string, Buffer>; fields: Map<string, string> }> {
  if (!/^multipart\/form-data\b/i.test(incoming.contentType)) throw new BodyError(415, 'expected multipart/form-data with an "audio" file');
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    const fields = new Map<string, string>();
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': incoming.contentType } });
    } catch (err) {
      reject(new BodyError(400, (err as Error).message));
      return;
    }
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => files.set(name, Buffer.concat(chunks)));
    });
    parser.on('field', (name, value) => fields.set(name, value));
    parser.on('close', () => resolve({ files, fields }));
    parser.on('error', (err) => reject(new BodyError(400, (err as Error).message)));
    parser.end(incoming.body);
  });
}

const optionalNumber = (value: unknown): number => (value === undefined || value === null || value === '' ? 0 : Number(value));

const rest: BodyDesign = {
  async decode(route, schema, incoming) {
    switch (route) {
      case 'capabilities':
        return create(schema);
      case 'translate': {
        const json = jsonObject(incoming);
        return create(schema, { text: text(json, 'q'), sourceLanguage: text(json, 'source'), targetLanguage: text(json, 'target'), model: text(json, 'model'), context: text(json, 'context'), languageFormat: text(json, 'format') } as never);
      }
      case 'detect': {
        // A form, as an HTML form would send it.
        if (!/^application\/x-www-form-urlencoded\b/i.test(incoming.contentType)) throw new BodyError(415, 'expected application/x-www-form-urlencoded');
        const form = new URLSearchParams(incoming.body.toString('utf8'));
        return create(schema, { text: form.get('q') ?? '', languageFormat: form.get('format') ?? '' } as never);
      }
      case 'localize': {
        const json = jsonObject(incoming);
        return create(schema, {
          json: jsonText(json, 'strings'),
          sourceLanguage: text(json, 'source'),
          targetLanguage: text(json, 'target'),
          model: text(json, 'model'),
          existingTranslation: jsonText(json, 'existing'),
          context: jsonText(json, 'hints'),
          languageFormat: text(json, 'format'),
        } as never);
      }
      case 'transcribe': {
        const { files, fields } = await upload(incoming);
        const audio = files.get('audio');
        if (!audio) throw new BodyError(400, 'no "audio" file in the upload');
        return create(schema, { audioData: new Uint8Array(audio), language: fields.get('language') ?? '', languageFormat: fields.get('format') ?? '' } as never);
      }
      case 'translate-audio': {
        if (!/^(audio\/(wav|x-wav|wave)|application\/octet-stream)\b/i.test(incoming.contentType)) throw new BodyError(415, 'expected the WAV itself (audio/wav)');
        const q = incoming.query;
        return create(schema, {
          audioData: new Uint8Array(incoming.body),
          sourceLanguage: q.get('source') ?? '',
          targetLanguage: q.get('target') ?? '',
          targetVoice: q.get('voice') ?? '',
          languageFormat: q.get('format') ?? '',
        } as never);
      }
      case 'synthesize': {
        const json = jsonObject(incoming);
        const speed = optionalNumber(json.speed);
        if (!Number.isFinite(speed)) throw new BodyError(400, '"speed" must be a number');
        return create(schema, { text: text(json, 'text'), language: text(json, 'lang'), voice: text(json, 'voice'), speed, languageFormat: text(json, 'format') } as never);
      }
    }
  },
  encode(route, _schema, response) {
    const r = response as unknown as Record<string, unknown>;
    const json = (value: unknown): Outgoing => ({ headers: JSON_TYPE, body: JSON.stringify(value) });
    switch (route) {
      case 'capabilities':
        return json({ voices: r.availableVoices, models: r.availableModels, speech_to_text: r.sttAvailable, text_to_speech: r.ttsAvailable });
      case 'translate':
        return json({ translation: { text: r.translatedText, detected_source: r.detectedLanguage || null, model: r.modelUsed } });
      case 'detect':
        return json({ detections: [{ language: r.language, confidence: r.probability }] });
      case 'localize': {
        let strings: unknown = r.json;
        try {
          strings = JSON.parse(String(r.json));
        } catch {
          // Passed on as the text the service gave.
        }
        return json({ strings, translated_count: r.stringsTranslated });
      }
      case 'transcribe':
        return { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Detected-Language': String(r.detectedLanguage) }, body: String(r.fullText) };
      case 'translate-audio':
        return json({
          heard: r.transcription,
          translation: r.translatedText,
          audio: `data:audio/wav;base64,${Buffer.from(r.translatedAudio as Uint8Array).toString('base64')}`,
          sample_rate: r.sampleRate,
        });
      case 'synthesize':
        return { headers: { 'Content-Type': 'audio/wav', 'X-Sample-Rate': String(r.sampleRate) }, body: Buffer.from(r.audioData as Uint8Array) };
    }
  },
};

export const DESIGNS: Record<DesignName, BodyDesign> = { proto, snake, rest };
