// translate_localization: answers as TranslateLocalization on the same service (nested JSON, an existing
// translation reused); explicit BCP-47 source and target succeed where `auto` does not; and (informational)
// the reference's choices: no context parameter, omitted optional parameters sent empty.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { backend, callThrough, facts, pair, sharedStub, sharedTools, STDIO } from './target.ts';
import { answerOf, judge, rpcJson, shown } from './tool-answer.ts';

const M = TranslateService.method;
const TOOL = 'translate_localization';
const DOCUMENT = JSON.stringify({
  greeting: pair.text,
  menu: { items: ['Open the file', 'Save everything', '  '], count: 3, enabled: true, note: null },
  farewell: 'See you tomorrow',
});
const EXISTING = JSON.stringify({ farewell: 'Hasta mañana' });
const model = facts.defaultModel || 'pseudo';

check('translate-tools/tools/wraps-rpcs/translate-localization-answers-as-the-rpc', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([
    tools.callTool(TOOL, {
      json: DOCUMENT,
      source_language: pair.source,
      target_language: pair.target,
      model,
      existing_translation: EXISTING,
      language_format: 'bcp47',
    }),
    grpc.call(M.translateLocalization, {
      json: DOCUMENT,
      sourceLanguage: pair.source,
      targetLanguage: pair.target,
      model,
      existingTranslation: EXISTING,
      languageFormat: 'bcp47',
    }),
  ]);
  const expected = await c.need('TranslateLocalization called directly', () => rpcJson(M.translateLocalization.output, rpc));
  // The JSON text is compared as the document it holds (spacing may differ).
  judge(t, c, answerOf(tool), M.translateLocalization.output, expected);
});

check('translate-tools/translate-localization/explicit-bcp47-languages/auto-source-does-not-succeed', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const call = (source: string) => tools.callTool(TOOL, { json: DOCUMENT, source_language: source, target_language: pair.target });
  const [explicit, auto, direct] = await Promise.all([
    call(pair.source).then(answerOf),
    call('auto').then(answerOf),
    grpc.call(M.translateLocalization, { json: DOCUMENT, sourceLanguage: pair.source, targetLanguage: pair.target }),
  ]);
  // The explicit call can only be expected to succeed where the service itself serves it.
  await c.need(`TranslateLocalization called directly with source ${pair.source}`, () => rpcJson(M.translateLocalization.output, direct));
  t.true(explicit.ok, `explicit source ${pair.source}: ${shown(explicit)}`);
  // Not succeeding is an answer: a call left unanswered (the client's limit ran out) has not been refused.
  t.true(auto.answered && !auto.ok, `source auto: ${shown(auto)}`);
});

// ---------------------------------------------------------------- informational
check('translate-tools/translate-localization/no-context/context-argument-refused', STDIO, async (t, c) => {
  const { stub, tools } = await sharedStub(c);
  const json = JSON.stringify({ key: `context ${c.id}` });
  const answer = answerOf(await tools.callTool(TOOL, { json, source_language: pair.source, target_language: pair.target, context: '{"key":"a hint"}' }));
  t.true(answer.toolError, shown(answer));
  t.false(stub.calls.some((call) => Buffer.from(call.message).includes(json)), 'the service was called');
});

check('translate-tools/translate-localization/defaults/omitted-sent-empty', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const json = JSON.stringify({ key: `defaults ${c.id}` });
  const args = { json, source_language: pair.source, target_language: pair.target };
  const called = await callThrough(t, c, shared, { tool: TOOL, args }, M.translateLocalization, (r) => r.json === json, { mustCall: false });
  if (!called) return;
  const { request } = called;
  t.deepEqual(
    { model: request.model, existingTranslation: request.existingTranslation, context: request.context, languageFormat: request.languageFormat },
    { model: '', existingTranslation: '', context: '', languageFormat: '' },
  );
});
