// TranslateText. Checks run in the catalog's order: language_format, model key, language codes, model
// files; then the text is translated (blank text and same-language pairs come back unchanged).
import type { TranslateTextRequest } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CallContext } from '../core/call-context.ts';
import { invalidArgument } from '../core/errors.ts';
import { isAuto, parseLanguageFormat } from '../core/language-codes.ts';
import { requireTarget, toModelCode } from './model-languages.ts';
import type { ServiceDeps } from './service-deps.ts';

export async function translateText(deps: ServiceDeps, request: TranslateTextRequest, call: CallContext) {
  const format = parseLanguageFormat(request.languageFormat);
  const model = deps.models.resolve(request.model);
  const target = requireTarget(request.targetLanguage);
  const detect = isAuto(request.sourceLanguage);
  const blank = request.text.trim() === '';
  let source = request.sourceLanguage;
  let detectedLanguage = '';
  if (detect) {
    const detection = await deps.detector.detect(request.text);
    if (blank || detection.language === 'und') {
      if (!blank) throw invalidArgument('source_language could not be detected from text; give it explicitly');
      // Nothing to translate: the text comes back as it is.
      return { translatedText: request.text, detectedLanguage: 'und', modelUsed: model.key };
    }
    // Detector output is BCP-47 (the pivot); `native` callers get it in the model's vocabulary.
    source = detection.language;
    detectedLanguage = format === 'native' ? model.toNative(source) : source;
  }
  const pair = {
    source: detect ? model.toNative(source) : toModelCode(model, source, format),
    target: toModelCode(model, target, format),
  };
  model.checkPair(pair);
  if (blank || pair.source === pair.target) {
    return { translatedText: request.text, detectedLanguage, modelUsed: model.key };
  }
  model.checkFiles(pair);
  const [translatedText] = await model.translate([request.text], pair, {
    call,
    format,
    contexts: request.context ? [request.context] : undefined,
  });
  return { translatedText: translatedText!, detectedLanguage, modelUsed: model.key };
}
