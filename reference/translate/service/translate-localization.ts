// TranslateLocalization: every leaf string of the document, at any depth and inside arrays, translated in
// one model call; blank strings and non-strings unchanged; values found in existing_translation reused
// (and not counted); per-key context hints passed along; key order and layout preserved.
import type { TranslateLocalizationRequest } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CallContext } from '../core/call-context.ts';
import { invalidArgument } from '../core/errors.ts';
import { isAuto, parseLanguageFormat } from '../core/language-codes.ts';
import { leafStrings, type Node, parseJson, serialize, stringAt } from './json-tree.ts';
import { modelPair, requireTarget } from './model-languages.ts';
import type { ServiceDeps } from './service-deps.ts';

const isBlank = (text: string): boolean => text.trim() === '';

function optionalJson(text: string, field: string): Node | undefined {
  return isBlank(text) ? undefined : parseJson(text, field);
}

export async function translateLocalization(deps: ServiceDeps, request: TranslateLocalizationRequest, call: CallContext) {
  const format = parseLanguageFormat(request.languageFormat);
  const model = deps.models.resolve(request.model);
  if (isAuto(request.sourceLanguage)) {
    throw invalidArgument(`source_language must be an explicit language code ("${request.sourceLanguage}" given; auto-detection is not supported here)`);
  }
  const pair = modelPair(model, request.sourceLanguage, requireTarget(request.targetLanguage), format);
  try {
    const root = parseJson(request.json, 'json');
    const existing = optionalJson(request.existingTranslation, 'existing_translation');
    const hints = optionalJson(request.context, 'context');

    const replacements = new Map<Node, string>();
    // Texts to translate, each once (with its hint), and the leaves that receive each translation.
    const work = new Map<string, { text: string; context: string | undefined; nodes: Node[] }>();
    let count = 0;
    for (const leaf of leafStrings(root)) {
      if (isBlank(leaf.text)) continue;
      const reused = stringAt(existing, leaf.path);
      if (reused !== undefined && !isBlank(reused)) {
        replacements.set(leaf.node, reused);
        continue;
      }
      count++;
      const context = stringAt(hints, leaf.path);
      const key = JSON.stringify([leaf.text, context ?? null]);
      const entry = work.get(key) ?? { text: leaf.text, context, nodes: [] };
      entry.nodes.push(leaf.node);
      work.set(key, entry);
    }
    if (work.size > 0 && pair.source !== pair.target) {
      model.checkFiles(pair);
      const entries = [...work.values()];
      const translated = await model.translate(
        entries.map((e) => e.text),
        pair,
        { call, format, contexts: entries.some((e) => e.context) ? entries.map((e) => e.context) : undefined },
      );
      entries.forEach((entry, i) => {
        for (const node of entry.nodes) replacements.set(node, translated[i]!);
      });
    }
    return { json: serialize(root, request.json, replacements), stringsTranslated: count };
  } catch (err) {
    // Recursion over absurdly deep documents: the input's fault, not the server's.
    if (err instanceof RangeError) throw invalidArgument('json is nested too deeply');
    throw err;
  }
}
