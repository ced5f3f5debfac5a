// A permitted variant of the translation service, for proving that the translate suite passes a different
// but right implementation: a gRPC front over the reference (tools/test/faulty/faulty-translate-front.ts)
// where each variant named in VARIANTS (comma-separated, see variant-translate-variants.ts) changes the
// service only where document 000 leaves room (error wording and details, list order, timing, scores,
// the TTS sample rate and WAV layout, segment splitting, speed 0, the BCP-47 form of detected languages,
// the JSON layout, how duplicates count, the reading of "50 MB", a bound on duration, extra fields and
// metadata, model keys).
//
//   node --import <tsx> tools/test/variant/variant-translate.ts [--port N] [reference options...]
//
// Port: --port, else TRANSLATE_PORT, else 5100 (0 picks a free one); address TRANSLATE_BIND (127.0.0.1).
import { create } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import type { Node } from 'jsonc-parser';
import { TranscriptionSegmentSchema } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { leafStrings, parseJson, stringAt } from '../../../reference/translate/service/json-tree.ts';
import { type Forward, type Method, runFront } from '../faulty/faulty-translate-front.ts';
import { decode, encode, type Fields } from '../faulty/faulty-translate-wire.ts';
import { EXTERNAL_MODEL_KEYS, type TranslateVariant, VARIANT_AUDIO_LIMIT, VARIANT_MAX_AUDIO_SECONDS, VARIANT_TTS_RATE } from './variant-translate-variants.ts';

const variants = new Set((process.env.VARIANTS ?? '').split(',').filter(Boolean) as TranslateVariant[]);
const on = (v: TranslateVariant): boolean => variants.has(v);

/** Delay before each call is relayed (`slow`). */
const SLOW_MS = 150;
/** The unknown field appended to every answer (`extra-fields`): a number no message of v1 uses. */
const EXTRA_FIELD = new BinaryWriter().tag(15, WireType.LengthDelimited).string('variant-translate').finish();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const isBcp47Format = (format: unknown): boolean => typeof format !== 'string' || ['', 'bcp47'].includes(format.trim().toLowerCase());
const INTERNAL_MODEL_KEYS = new Map([...EXTERNAL_MODEL_KEYS].map(([external, internal]) => [internal, external]));

// ---------------------------------------------------------------- requests

function refusal(code: status, details: string): Forward {
  return { refusal: { code, details } };
}

async function request(m: Method, bytes: Buffer): Promise<Forward> {
  if (on('slow')) await sleep(SLOW_MS);
  const fields = decode(m.input, bytes);
  if (on('audio-limit-si') && fields.audioData instanceof Uint8Array && fields.audioData.length > VARIANT_AUDIO_LIMIT) {
    return refusal(status.RESOURCE_EXHAUSTED, `audio larger than ${VARIANT_AUDIO_LIMIT} bytes`);
  }
  if (on('duration-bound') && (m.name === 'TranscribeAudio' || m.name === 'TranslateAudio') && (seconds(fields.audioData as Uint8Array) ?? 0) > VARIANT_MAX_AUDIO_SECONDS) {
    return refusal(status.INVALID_ARGUMENT, `audio longer than ${VARIANT_MAX_AUDIO_SECONDS} s`);
  }
  if (on('silence-refused') && (m.name === 'TranscribeAudio' || m.name === 'TranslateAudio') && silent(fields.audioData as Uint8Array)) {
    return refusal(status.INVALID_ARGUMENT, 'no sound in the audio');
  }
  if (on('pcm16-only') && (m.name === 'TranscribeAudio' || m.name === 'TranslateAudio') && !pcm16(fields.audioData as Uint8Array)) {
    return refusal(status.INVALID_ARGUMENT, 'only 16-bit PCM audio is supported');
  }
  if (on('speed-zero-refused') && m.name === 'SynthesizeSpeech' && fields.speed === 0) {
    return refusal(status.INVALID_ARGUMENT, 'a speech rate multiplier is required');
  }
  if (on('model-keys') && typeof fields.model === 'string' && EXTERNAL_MODEL_KEYS.has(fields.model)) {
    return { bytes: encode(m.input, { ...fields, model: EXTERNAL_MODEL_KEYS.get(fields.model) }), request: fields };
  }
  return { bytes, request: fields };
}

// ---------------------------------------------------------------- answers

/** A BCP-47 tag with its likely region added (`en` → `en-US`); `und`, tags with a region and tags the
 * likely-subtags data does not know stay as they are. */
function withRegion(tag: string): string {
  if (tag === '' || tag === 'und') return tag;
  try {
    const locale = new Intl.Locale(tag);
    const region = locale.maximize().region;
    return locale.region || !region ? tag : `${tag}-${region}`;
  } catch {
    return tag;
  }
}

/** The leaf strings of a localization request the reference translated: non-blank and not taken from
 * existing_translation. */
function freshLeaves(request: Fields): string[] {
  const input = parseJson(request.json as string, 'json');
  const existingText = request.existingTranslation as string;
  const existing = existingText.trim() === '' ? undefined : parseJson(existingText, 'existing_translation');
  return leafStrings(input)
    .filter((leaf) => leaf.text.trim() !== '')
    .filter((leaf) => (stringAt(existing, leaf.path) ?? '').trim() === '')
    .map((leaf) => leaf.text);
}

/** Compact JSON text of the tree: object members sorted by key, non-ASCII characters escaped, numbers in
 * their source form. */
function compactSorted(node: Node, source: string): string {
  switch (node.type) {
    case 'string':
      return asciiJson(node.value as string);
    case 'number':
      return source.slice(node.offset, node.offset + node.length);
    case 'boolean':
    case 'null':
      return String(node.value);
    case 'array':
      return `[${(node.children ?? []).map((child) => compactSorted(child, source)).join(',')}]`;
    case 'object': {
      const members = (node.children ?? []).map((p) => [p.children![0]!.value as string, p.children![1]!] as const);
      members.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${members.map(([key, value]) => `${asciiJson(key)}:${compactSorted(value, source)}`).join(',')}}`;
    }
    default:
      throw new Error(`unexpected JSON node ${node.type}`);
  }
}

const asciiJson = (text: string): string => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The `fmt ` fields and the `data` bytes of a WAV file, when it has both. */
function wavParts(audio: Uint8Array): { format: number; channels: number; rate: number; bits: number; data: Buffer } | undefined {
  const b = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let fmt: { format: number; channels: number; rate: number; bits: number } | undefined;
  for (let at = 12; at + 8 <= b.length; ) {
    const id = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 24 <= b.length) {
      fmt = { format: b.readUInt16LE(at + 8), channels: b.readUInt16LE(at + 10), rate: b.readUInt32LE(at + 12), bits: b.readUInt16LE(at + 22) };
    }
    if (id === 'data' && fmt) return { ...fmt, data: b.subarray(at + 8, Math.min(b.length, at + 8 + size)) };
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** How many seconds of audio a WAV holds, from its header and data size (undefined for no WAV). */
function seconds(audio: Uint8Array | undefined): number | undefined {
  const wav = audio && wavParts(audio);
  const frameBytes = wav ? (wav.channels * wav.bits) / 8 : 0;
  return wav && frameBytes > 0 && wav.rate > 0 ? wav.data.length / frameBytes / wav.rate : undefined;
}

/** A 16-bit PCM WAV whose samples all stay within a few steps of zero. */
function silent(audio: Uint8Array | undefined): boolean {
  const wav = audio && wavParts(audio);
  if (wav?.format !== 1 || wav.bits !== 16) return false;
  for (let at = 0; at + 2 <= wav.data.length; at += 2) if (Math.abs(wav.data.readInt16LE(at)) > 32) return false;
  return true;
}

/** A WAV of 16-bit PCM samples (plain or extensible); anything else that has a `fmt ` and a `data` chunk is
 * not, and what has none is left to the reference to refuse. */
function pcm16(audio: Uint8Array | undefined): boolean {
  const wav = audio && wavParts(audio);
  if (!wav) return true;
  return (wav.format === 1 || wav.format === 0xfffe) && wav.bits === 16;
}

/** A 16-bit PCM WAV resampled (linearly) to `rate`, written as WAVE_FORMAT_EXTENSIBLE with a LIST chunk before
 * its data. */
function resampleWav(audio: Uint8Array, rate: number): Uint8Array {
  const fmt = wavParts(audio);
  if (fmt?.bits !== 16) return audio;
  const { channels, data } = fmt;
  const inFrames = Math.floor(data.length / (2 * channels));
  const outFrames = Math.round((inFrames * rate) / fmt.rate);
  const out = Buffer.alloc(outFrames * 2 * channels);
  for (let i = 0; i < outFrames; i++) {
    const x = (i * fmt.rate) / rate;
    const i0 = Math.min(Math.floor(x), inFrames - 1);
    const i1 = Math.min(i0 + 1, inFrames - 1);
    const f = x - i0;
    for (let ch = 0; ch < channels; ch++) {
      const a = data.readInt16LE((i0 * channels + ch) * 2);
      const z = data.readInt16LE((i1 * channels + ch) * 2);
      out.writeInt16LE(Math.round(a + (z - a) * f), (i * channels + ch) * 2);
    }
  }
  // WAVE_FORMAT_EXTENSIBLE with the PCM sub-format (a 40-byte fmt chunk), then a LIST chunk, then the data.
  const fmtChunk = Buffer.alloc(48);
  fmtChunk.write('fmt ', 0, 'latin1');
  fmtChunk.writeUInt32LE(40, 4);
  fmtChunk.writeUInt16LE(0xfffe, 8);
  fmtChunk.writeUInt16LE(channels, 10);
  fmtChunk.writeUInt32LE(rate, 12);
  fmtChunk.writeUInt32LE(rate * 2 * channels, 16);
  fmtChunk.writeUInt16LE(2 * channels, 20);
  fmtChunk.writeUInt16LE(16, 22);
  fmtChunk.writeUInt16LE(22, 24); // cbSize
  fmtChunk.writeUInt16LE(16, 26); // valid bits
  fmtChunk.writeUInt32LE(channels === 1 ? 0x4 : 0x3, 28); // speaker positions: centre, or front left and right
  Buffer.from('0100000000001000800000aa00389b71', 'hex').copy(fmtChunk, 32); // KSDATAFORMAT_SUBTYPE_PCM
  const info = Buffer.from('INFOISFT\x12\0\0\0variant-translate\0', 'latin1');
  const list = Buffer.concat([Buffer.from('LIST', 'latin1'), Buffer.alloc(4), info]);
  list.writeUInt32LE(info.length, 4);
  const dataChunk = Buffer.concat([Buffer.from('data', 'latin1'), Buffer.alloc(4), out]);
  dataChunk.writeUInt32LE(out.length, 4);
  const riff = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WAVE', 'latin1'), fmtChunk, list, dataChunk]);
  riff.writeUInt32LE(riff.length - 8, 4);
  return riff;
}

function alterAnswer(m: Method, request: Fields, response: Fields): void {
  switch (m.name) {
    case 'TranslateText':
      if (on('detected-region') && isBcp47Format(request.languageFormat)) response.detectedLanguage = withRegion(response.detectedLanguage as string);
      if (on('model-keys')) response.modelUsed = INTERNAL_MODEL_KEYS.get(response.modelUsed as string) ?? response.modelUsed;
      return;
    case 'DetectLanguage':
      if (on('detected-region') && isBcp47Format(request.languageFormat)) response.language = withRegion(response.language as string);
      if (on('probabilities') && (response.probability as number) > 0) response.probability = Math.max(0.0001, (response.probability as number) ** 2);
      return;
    case 'TranslateLocalization':
      if (on('count-distinct')) response.stringsTranslated = new Set(freshLeaves(request)).size;
      if (on('localization-layout')) response.json = compactSorted(parseJson(response.json as string, 'json'), response.json as string);
      return;
    case 'TranscribeAudio': {
      if (on('detected-region') && isBcp47Format(request.languageFormat)) response.detectedLanguage = withRegion(response.detectedLanguage as string);
      const segments = response.segments as { text: string; startTime: number; endTime: number }[];
      if (on('segments') && segments.length > 0) {
        const endTime = Math.max(...segments.map((s) => s.endTime));
        response.segments = [create(TranscriptionSegmentSchema, { text: response.fullText as string, startTime: 0, endTime })];
      }
      return;
    }
    case 'SynthesizeSpeech':
      if (on('tts-24000-hz')) {
        response.audioData = resampleWav(response.audioData as Uint8Array, VARIANT_TTS_RATE);
        response.sampleRate = VARIANT_TTS_RATE;
      }
      return;
    case 'TranslateAudio':
      if (on('tts-24000-hz')) {
        response.translatedAudio = resampleWav(response.translatedAudio as Uint8Array, VARIANT_TTS_RATE);
        response.sampleRate = VARIANT_TTS_RATE;
      }
      return;
    case 'GetCapabilities':
      if (on('list-order')) {
        response.availableModels = [...(response.availableModels as string[])].reverse();
        response.availableVoices = [...(response.availableVoices as string[])].reverse();
      }
      if (on('model-keys')) response.availableModels = (response.availableModels as string[]).map((k) => INTERNAL_MODEL_KEYS.get(k) ?? k);
      return;
  }
}

const ANSWER_VARIANTS: TranslateVariant[] = [
  'detected-region',
  'model-keys',
  'probabilities',
  'count-distinct',
  'localization-layout',
  'segments',
  'tts-24000-hz',
  'list-order',
];

function response(m: Method, request: Fields | undefined, bytes: Buffer): Buffer {
  let out = bytes;
  if (request && ANSWER_VARIANTS.some(on)) {
    const fields = decode(m.output, bytes);
    alterAnswer(m, request, fields);
    out = encode(m.output, fields);
  }
  return on('extra-fields') ? Buffer.concat([out, EXTRA_FIELD]) : out;
}

// ---------------------------------------------------------------- errors and metadata

function served(): Metadata {
  const metadata = new Metadata();
  metadata.set('x-served-by', 'variant-translate');
  metadata.set('x-variant-trace', `${process.pid}-${Date.now()}`);
  return metadata;
}

/** A google.rpc.Status with one google.rpc.ErrorInfo, as the `grpc-status-details-bin` trailer carries it. */
function statusDetails(code: number, message: string): Buffer {
  const info = new BinaryWriter().tag(1, WireType.LengthDelimited).string(status[code] ?? 'UNKNOWN').tag(2, WireType.LengthDelimited).string('variant.translate').finish();
  const any = new BinaryWriter().tag(1, WireType.LengthDelimited).string('type.googleapis.com/google.rpc.ErrorInfo').tag(2, WireType.LengthDelimited).bytes(info).finish();
  return Buffer.from(new BinaryWriter().tag(1, WireType.Varint).int32(code).tag(2, WireType.LengthDelimited).string(message).tag(3, WireType.LengthDelimited).bytes(any).finish());
}

function error(_m: Method, err: ServiceError): Partial<ServiceError> {
  const metadata = err.metadata?.clone() ?? new Metadata();
  let details = err.details;
  if (on('error-wording')) {
    details = `the service could not complete this call (${status[err.code]?.toLowerCase().replace(/_/g, ' ') ?? err.code})`;
    metadata.set('grpc-status-details-bin', statusDetails(err.code, details));
  }
  if (on('trailing-metadata')) metadata.merge(served());
  return { code: err.code, details, metadata };
}

await runFront({
  request: (m, bytes) => request(m, bytes),
  response: (m, fields, bytes) => response(m, fields, bytes),
  error,
  trailer: () => (on('trailing-metadata') ? served() : undefined),
  // Above the reference's 64 MiB: an over-limit audio_data reaches the front's own check.
  maxMessageBytes: 64 * 1024 * 1024,
});
