// The five tools of document 000 ("Tool wrapper for AI clients"): name, description, strict input
// schema and the RPC each calls. Parameter names are the request's protobuf field names.
import type { DescMessage } from '@bufbuild/protobuf';
import { z } from 'zod';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { readAudio } from './read-audio.ts';

export interface ToolSpec {
  name: string;
  description: string;
  /** Strict: an unknown parameter is refused. Defaults declared here are filled in before the call. */
  input: z.ZodObject;
  method: { name: string; localName: string; input: DescMessage; output: DescMessage };
  /** A parameter that is not copied but loaded into another request field (file_path → audio_data). */
  loaded?: { parameter: string; field: string; load: (value: string) => Promise<unknown> };
}

const MODEL = 'Key of a configured translation model (see get_capabilities availableModels); omit for the service default model.';
const FORMAT = 'How language codes are written in the request and the result: "bcp47" (BCP-47 tags such as "pt-BR", the default) or "native" (the model\'s or detector\'s own codes).';

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'translate_text',
    description:
      'Translate a text into another language with the translation service. Returns translatedText, modelUsed and, when the source language was auto-detected, detectedLanguage.',
    input: z.strictObject({
      text: z.string().describe('The text to translate.'),
      target_language: z.string().describe('Language to translate into, as a BCP-47 code such as "es" or "pt-BR" (a native code when language_format is "native").'),
      source_language: z.string().default('auto').describe('Language of the text as a BCP-47 code, or "auto" (the default) to detect it.'),
      model: z.string().optional().describe(MODEL),
      language_format: z.string().default('bcp47').describe(FORMAT),
    }),
    method: TranslateService.method.translateText,
  },
  {
    name: 'detect_language',
    description: 'Detect the language of a text. Returns the language code and a probability between 0 and 1.',
    input: z.strictObject({
      text: z.string().describe('The text whose language to detect.'),
      language_format: z.string().default('bcp47').describe('"bcp47" (the default) for a BCP-47 tag, or "native" for the detector\'s raw label.'),
    }),
    method: TranslateService.method.detectLanguage,
  },
  {
    name: 'translate_localization',
    description:
      'Translate every string value of a JSON localization file, at any nesting depth and inside arrays; keys, numbers, booleans, null and blank strings are kept. Returns the translated JSON text and stringsTranslated, the count of strings newly translated.',
    input: z.strictObject({
      json: z.string().describe('The localization file as JSON text.'),
      source_language: z.string().describe('Language of the file\'s strings as an explicit BCP-47 code; "auto" is not accepted.'),
      target_language: z.string().describe('Language to translate into, as a BCP-47 code.'),
      model: z.string().optional().describe(MODEL),
      existing_translation: z
        .string()
        .optional()
        .describe('JSON text of an earlier translation of the same shape; its values for matching keys are reused instead of translated again.'),
      language_format: z.string().optional().describe(FORMAT),
    }),
    method: TranslateService.method.translateLocalization,
  },
  {
    name: 'transcribe_audio',
    description:
      'Transcribe the speech in a WAV file (any sample rate and channel count) to text. Returns segments with start and end times in seconds, fullText and detectedLanguage. Needs speech-to-text enabled on the service (see get_capabilities sttAvailable).',
    input: z.strictObject({
      file_path: z.string().describe('Absolute path of the WAV file on the machine running this tool server; at most 50 MB.'),
      language: z.string().optional().describe('Spoken language as a BCP-47 hint, or "auto" (or omitted) to detect it.'),
      language_format: z.string().optional().describe(FORMAT),
    }),
    method: TranslateService.method.transcribeAudio,
    loaded: { parameter: 'file_path', field: 'audio_data', load: readAudio },
  },
  {
    name: 'get_capabilities',
    description:
      'Report what the translation service offers: the translation models available (availableModels), whether speech-to-text (sttAvailable) and text-to-speech (ttsAvailable) are enabled, and the languages with a voice (availableVoices).',
    input: z.strictObject({}),
    method: TranslateService.method.getCapabilities,
  },
];
