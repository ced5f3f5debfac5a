// A deliberately faulty translation service, for proving that the translate suite can fail: a gRPC front over
// the reference (faulty-translate-front.ts) where each fault named in FAULTS (comma-separated, see
// faulty-translate-faults.ts) alters requests, responses, status codes or the relayed log to break one
// documented rule (the speech faults are in faulty-translate-speech.ts).
//
//   node --import <tsx> tools/test/faulty/faulty-translate.ts [--port N] [reference options...]
//
// Port: --port, else TRANSLATE_PORT, else 5100 (0 picks a free one); address TRANSLATE_BIND (127.0.0.1).
// Other options go to the reference; without --config (or TRANSLATE_CONFIG) it gets the reference target's
// configuration.
import { type Client, type ServiceError, status } from '@grpc/grpc-js';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { leafStrings, type Node, parseJson, serialize, stringAt } from '../../../reference/translate/service/json-tree.ts';
import { type Forward, type Method, runFront } from './faulty-translate-front.ts';
import type { TranslateFault } from './faulty-translate-faults.ts';
import { SPEECH_REQUEST_FAULTS, SPEECH_RESPONSE_FAULTS, speechFaults } from './faulty-translate-speech.ts';
import { callReference, decode, encode, type Fields } from './faulty-translate-wire.ts';

const faults = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean) as TranslateFault[]);
const on = (f: TranslateFault): boolean => faults.has(f);
const speech = speechFaults(on);

const isBlank = (text: string): boolean => text.trim() === '';

// ---------------------------------------------------------------- the faults

const requestFaults: TranslateFault[] = ['flores200-accepted', 'unknown-model-default', 'native-label-bcp47', ...SPEECH_REQUEST_FAULTS];

/** The request as forwarded (with the decoded request as the caller sent it, for faults on the response),
 * or the status the front answers instead of relaying. */
function alterRequest(m: Method, bytes: Buffer, knownModels: Set<string> | undefined): Forward {
  if (faults.size === 0) return { bytes };
  const request = decode(m.input, bytes);
  const refusal = speech.refusal(m.name, request);
  if (refusal) return { refusal };
  if (!requestFaults.some(on)) return { bytes, request };
  const altered = { ...request };
  speech.alterRequest(m.name, altered);
  const format = typeof altered.languageFormat === 'string' ? altered.languageFormat.toLowerCase() : undefined;
  if (on('flores200-accepted') && format === 'flores200') altered.languageFormat = '';
  if (on('native-label-bcp47') && m.name === 'DetectLanguage' && format === 'native') altered.languageFormat = 'bcp47';
  if (on('unknown-model-default') && typeof altered.model === 'string' && altered.model !== '' && knownModels && !knownModels.has(altered.model)) {
    altered.model = '';
  }
  return { bytes: encode(m.input, altered), request };
}

function optionalTree(text: string, field: string): Node | undefined {
  return isBlank(text) ? undefined : parseJson(text, field);
}

/** A leaf that the reference took from existing_translation. */
function reused(existing: Node | undefined, path: (string | number)[]): boolean {
  const value = stringAt(existing, path);
  return value !== undefined && !isBlank(value);
}

function alterLocalization(request: Fields, response: Fields): void {
  try {
    const input = parseJson(request.json as string, 'json');
    const existing = optionalTree(request.existingTranslation as string, 'existing_translation');
    let count = response.stringsTranslated as number;
    if (on('localization-skips-arrays')) {
      const output = parseJson(response.json as string, 'json');
      const replacements = new Map<Node, string>();
      for (const leaf of leafStrings(output)) {
        if (typeof leaf.path.at(-1) !== 'number' || reused(existing, leaf.path)) continue; // not an array element
        const original = stringAt(input, leaf.path);
        if (original === undefined) continue;
        replacements.set(leaf.node, original);
        if (!isBlank(original)) count--;
      }
      response.json = serialize(output, response.json as string, replacements);
    }
    if (on('count-includes-reused')) {
      count += leafStrings(input).filter((leaf) => !isBlank(leaf.text) && reused(existing, leaf.path)).length;
    }
    response.stringsTranslated = count;
  } catch {
    // Not JSON after all: leave the answer alone.
  }
}

/** GetCapabilitiesResponse field 1 (reserved `supported_languages`) as a length-delimited "en". */
const FIELD_1 = Buffer.from([(1 << 3) | 2, 2, 0x65, 0x6e]);

/** The language the reference detects in `text` (as BCP-47). */
async function detect(client: Client, text: string): Promise<string> {
  const detected = await callReference(client, TranslateService.method.detectLanguage, { text });
  return (detected?.language as string | undefined) ?? 'und';
}

async function alterResponse(client: Client, m: Method, request: Fields | undefined, bytes: Buffer): Promise<Buffer> {
  if (!request) return bytes;
  switch (m.name) {
    case 'TranslateText': {
      if (!on('detected-always') && !on('model-used-empty')) return bytes;
      const response = decode(m.output, bytes);
      const source = request.sourceLanguage as string;
      // Detection runs whatever the source: its result is reported even for an explicit source.
      if (on('detected-always') && response.detectedLanguage === '' && source !== '' && source.toLowerCase() !== 'auto') {
        response.detectedLanguage = await detect(client, request.text as string);
      }
      if (on('model-used-empty')) response.modelUsed = '';
      return encode(m.output, response);
    }
    case 'TranslateLocalization': {
      if (!on('localization-skips-arrays') && !on('count-includes-reused')) return bytes;
      const response = decode(m.output, bytes);
      alterLocalization(request, response);
      return encode(m.output, response);
    }
    case 'DetectLanguage': {
      if (!on('probability-out-of-range')) return bytes;
      const response = decode(m.output, bytes);
      if ((response.probability as number) > 0) response.probability = (response.probability as number) + 1;
      return encode(m.output, response);
    }
    case 'GetCapabilities':
      return on('capabilities-field-1') ? Buffer.concat([bytes, FIELD_1]) : bytes;
    case 'TranscribeAudio':
    case 'SynthesizeSpeech':
    case 'TranslateAudio': {
      if (!SPEECH_RESPONSE_FAULTS.some(on)) return bytes;
      const response = decode(m.output, bytes);
      await speech.alterResponse(client, m.name, request, response);
      return encode(m.output, response);
    }
    default:
      return bytes;
  }
}

function alterCode(code: number): number {
  if (on('not-allowed-invalid') && code === status.PERMISSION_DENIED) return status.INVALID_ARGUMENT;
  if (on('precondition-internal') && code === status.FAILED_PRECONDITION) return status.INTERNAL;
  return code;
}

await runFront({
  request: (m, bytes, { knownModels }) => alterRequest(m, bytes, knownModels),
  response: (m, request, bytes, { client }) => alterResponse(client, m, request, bytes),
  error: (_m, err: ServiceError) => ({ code: alterCode(err.code), details: err.details, metadata: err.metadata }),
  startupLog: () => speech.startupLog(),
  relaysLogLine: (line) => speech.relaysLogLine(line),
});

