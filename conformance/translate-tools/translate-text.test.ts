// translate_text: answers as TranslateText called directly on the same service (for explicit arguments and,
// as a property, for any text); the defaults of source_language (auto: the detected language is reported),
// model (the service's default: model_used as for an empty model) and language_format (bcp47; native
// accepted), each seen in the answer and in the request the tool sends (a recording stub); and
// (informational) an undocumented language_format refused by the service.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { backend, callThrough, facts, listing, nativePair, pair, sharedStub, sharedTools, STDIO } from './target.ts';
import { answerOf, judge, read, rpcJson, shown } from './tool-answer.ts';

const M = TranslateService.method;
const OUT = M.translateText.output;
const TOOL = 'translate_text';
/** The default model's key, given explicitly where the model is not what a case is about. */
const explicitModel = facts.defaultModel || 'pseudo';

// ---------------------------------------------------------------- the tool answers as the RPC
check('translate-tools/tools/wraps-rpcs/translate-text-answers-as-the-rpc', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const args = { text: pair.text, source_language: pair.source, target_language: pair.target, model: explicitModel, language_format: 'bcp47' };
  const [tool, rpc] = await Promise.all([
    tools.callTool(TOOL, args),
    grpc.call(M.translateText, { text: pair.text, sourceLanguage: pair.source, targetLanguage: pair.target, model: explicitModel, languageFormat: 'bcp47' }),
  ]);
  const expected = await c.need('TranslateText called directly', () => rpcJson(OUT, rpc));
  judge(t, c, answerOf(tool), OUT, expected);
});

check('translate-tools/tools/wraps-rpcs/translate-text-any-text-as-the-rpc', STDIO, async (_t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  // Every argument given: the defaults have cases of their own.
  const input = fc.record({ text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), source: fc.constantFrom('auto', pair.source) });
  let judged = 0;
  const unread: string[] = [];
  await c.property(
    input,
    async ({ text, source }) => {
      const args = { text, source_language: source, target_language: pair.target, model: explicitModel, language_format: 'bcp47' };
      const [tool, rpc] = await Promise.all([
        tools.callTool(TOOL, args),
        grpc.call(M.translateText, { text, sourceLanguage: source, targetLanguage: pair.target, model: explicitModel, languageFormat: 'bcp47' }),
      ]);
      const answer = answerOf(tool);
      // A text the service refuses (no letters to detect a language from, say) must fail as a tool call too.
      const reading = rpc.codeName === 'OK' && answer.ok ? read(answer, OUT, rpcJson(OUT, rpc)) : { mismatches: [], unreadable: [] };
      // A run whose answer the case cannot read proves nothing either way.
      if (reading.unreadable.length > 0 && reading.mismatches.length === 0) {
        unread.push(`${JSON.stringify(text)}: ${reading.unreadable.join(', ')} in ${shown(answer)}`);
        return;
      }
      judged++;
      assert.deepEqual(
        { ok: answer.answered ? answer.ok : 'no answer', diff: reading.mismatches },
        { ok: rpc.codeName === 'OK', diff: [] },
        `${shown(answer)}; rpc ${rpc.codeName} ${rpc.message}`,
      );
    },
    { numRuns: 30 },
  );
  if (judged === 0) c.inconclusive(`no run's answer could be read; for example ${unread[0]}`);
});

// ---------------------------------------------------------------- source-default-auto
check('translate-tools/translate-text/source-default-auto/reports-detected-language', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([
    tools.callTool(TOOL, { text: pair.text, target_language: pair.target, language_format: 'bcp47' }),
    grpc.call(M.translateText, { text: pair.text, sourceLanguage: 'auto', targetLanguage: pair.target, languageFormat: 'bcp47' }),
  ]);
  const expected = await c.need('TranslateText called directly with auto', () => rpcJson(OUT, rpc));
  judge(t, c, answerOf(tool), OUT, expected, { fields: ['detectedLanguage'], stated: ['detectedLanguage'] });
});

check('translate-tools/translate-text/source-default-auto/rpc-asked-to-detect', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const text = `source default ${c.id}`;
  const called = await callThrough(t, c, shared, { tool: TOOL, args: { text, target_language: pair.target } }, M.translateText, (r) => r.text === text, {
    mustCall: true,
  });
  if (!called) return;
  // Empty and `auto` both ask the service to detect the source.
  t.true(['auto', ''].includes(called.request.sourceLanguage), `source_language sent: ${JSON.stringify(called.request.sourceLanguage)}`);
});

// ---------------------------------------------------------------- model-default
check('translate-tools/translate-text/model-default/model-used-as-for-an-empty-model', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([
    tools.callTool(TOOL, { text: pair.text, source_language: pair.source, target_language: pair.target, language_format: 'bcp47' }),
    grpc.call(M.translateText, { text: pair.text, sourceLanguage: pair.source, targetLanguage: pair.target, model: '', languageFormat: 'bcp47' }),
  ]);
  const expected = await c.need('TranslateText called directly with an empty model', () => rpcJson(OUT, rpc));
  judge(t, c, answerOf(tool), OUT, expected, { fields: ['modelUsed', 'translatedText'] });
});

check('translate-tools/translate-text/model-default/rpc-model-empty', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const text = `model default ${c.id}`;
  const args = { text, source_language: pair.source, target_language: pair.target };
  const called = await callThrough(t, c, shared, { tool: TOOL, args }, M.translateText, (r) => r.text === text, { mustCall: true });
  if (!called) return;
  t.is(called.request.model, '', 'model sent');
});

// ---------------------------------------------------------------- format-default
check('translate-tools/translate-text/format-default/bcp47-when-omitted', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  // Detection shows the format: the detected language comes back in the requested one.
  const [tool, rpc, native] = await Promise.all([
    tools.callTool(TOOL, { text: pair.text, source_language: 'auto', target_language: pair.target }),
    grpc.call(M.translateText, { text: pair.text, sourceLanguage: 'auto', targetLanguage: pair.target, languageFormat: 'bcp47' }),
    grpc.call(M.translateText, { text: pair.text, sourceLanguage: 'auto', targetLanguage: nativePair.target, languageFormat: 'native' }),
  ]);
  const expected = await c.need('TranslateText called directly with bcp47', () => rpcJson(OUT, rpc));
  const nativeLabel = native.response?.detectedLanguage;
  const contrary: Record<string, string[]> = nativeLabel && nativeLabel !== expected.detectedLanguage ? { detectedLanguage: [nativeLabel] } : {};
  judge(t, c, answerOf(tool), OUT, expected, { fields: ['detectedLanguage'], stated: ['detectedLanguage'], contrary });
});

check('translate-tools/translate-text/format-default/native-accepted', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([
    tools.callTool(TOOL, { text: pair.text, source_language: 'auto', target_language: nativePair.target, language_format: 'native' }),
    grpc.call(M.translateText, { text: pair.text, sourceLanguage: 'auto', targetLanguage: nativePair.target, languageFormat: 'native' }),
  ]);
  const expected = await c.need('TranslateText called directly with native', () => rpcJson(OUT, rpc));
  judge(t, c, answerOf(tool), OUT, expected, { fields: ['detectedLanguage'], stated: ['detectedLanguage'] });
});

check('translate-tools/translate-text/format-default/rpc-format-bcp47-or-native', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const [omitted, native] = [`format omitted ${c.id}`, `format native ${c.id}`];
  const [sentOmitted, sentNative] = await Promise.all([
    callThrough(t, c, shared, { tool: TOOL, args: { text: omitted, source_language: 'auto', target_language: pair.target } }, M.translateText, (r) => r.text === omitted, {
      mustCall: true,
    }),
    callThrough(
      t,
      c,
      shared,
      { tool: TOOL, args: { text: native, source_language: 'auto', target_language: nativePair.target, language_format: 'native' } },
      M.translateText,
      (r) => r.text === native,
      { mustCall: true },
    ),
  ]);
  // The service reads empty as bcp47.
  if (sentOmitted) t.true(['bcp47', ''].includes(sentOmitted.request.languageFormat), `language_format sent when omitted: ${JSON.stringify(sentOmitted.request.languageFormat)}`);
  if (sentNative) t.is(sentNative.request.languageFormat, 'native');
});

// ---------------------------------------------------------------- format-values (informational)
check('translate-tools/translate-text/format-values/unsupported-format-is-invalid-argument', STDIO, async (t, c) => {
  const tools = await sharedTools(c);
  const answer = answerOf(
    await tools.callTool(TOOL, { text: pair.text, source_language: pair.source, target_language: pair.target, model: explicitModel, language_format: 'flores200' }),
  );
  t.true(answer.toolError, shown(answer));
  t.regex(answer.text, /^INVALID_ARGUMENT: /);
});

check('translate-tools/translate-text/format-values/no-enum-in-any-schema', STDIO, async (t, c) => {
  const withEnum = (await c.need('listing the tools', listing(c))).flatMap((tool) => {
    const format = (tool.inputSchema.properties as Record<string, { enum?: unknown }> | undefined)?.language_format;
    return format?.enum === undefined ? [] : [tool.name];
  });
  t.deepEqual(withEnum, [], 'tools whose language_format is an enum');
});
