// DetectLanguage: the detector's result, as BCP-47 or (for `native`) the detector's raw label.
import type { DetectLanguageRequest } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { parseLanguageFormat } from '../core/language-codes.ts';
import type { ServiceDeps } from './service-deps.ts';

export async function detectLanguage(deps: ServiceDeps, request: DetectLanguageRequest) {
  const format = parseLanguageFormat(request.languageFormat);
  const detection = await deps.detector.detect(request.text);
  return { language: format === 'native' ? detection.label : detection.language, probability: detection.probability };
}
