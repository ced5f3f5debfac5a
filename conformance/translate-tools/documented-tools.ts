// The tool table of document 000 ("Tool wrapper for AI clients") as data: each tool's parameters, which are
// required, and the RPC it wraps. The listing cases and the wrapping cases are driven by it.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';

export interface DocumentedTool {
  name: string;
  /** The clause area of the tool in spec/translate-tools.yaml. */
  area: string;
  required: string[];
  optional: string[];
  /** The RPC the tool is served by. */
  method: (typeof TranslateService.method)[keyof typeof TranslateService.method];
}

const M = TranslateService.method;

export const DOCUMENTED_TOOLS: readonly DocumentedTool[] = [
  {
    name: 'translate_text',
    area: 'translate-text',
    required: ['text', 'target_language'],
    optional: ['source_language', 'model', 'language_format'],
    method: M.translateText,
  },
  { name: 'detect_language', area: 'detect-language', required: ['text'], optional: ['language_format'], method: M.detectLanguage },
  {
    name: 'translate_localization',
    area: 'translate-localization',
    required: ['json', 'source_language', 'target_language'],
    optional: ['model', 'existing_translation', 'language_format'],
    method: M.translateLocalization,
  },
  { name: 'transcribe_audio', area: 'transcribe-audio', required: ['file_path'], optional: ['language', 'language_format'], method: M.transcribeAudio },
  { name: 'get_capabilities', area: 'get-capabilities', required: [], optional: [], method: M.getCapabilities },
];

export const documented = (name: string): DocumentedTool => DOCUMENTED_TOOLS.find((t) => t.name === name)!;
