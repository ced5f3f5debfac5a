// detect_language: answers as DetectLanguage on the same service; language_format defaults to bcp47, seen on
// a service whose detector's raw labels are no BCP-47 tags (the backend's `unscored-detector` variant: script
// names such as "Greek") and in the request the tool sends.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { backend, facts, pair, recordedRequest, sharedStub, sharedTools, STDIO, toolServer } from './target.ts';
import { answerOf, mismatches, rpcJson, shown } from './tool-answer.ts';

const M = TranslateService.method;
const TOOL = 'detect_language';
const RAW_LABELS = 'unscored-detector';
/** A text whose raw label on that variant differs from its BCP-47 tag. */
const labelled = facts.detectorLabels?.find((l) => l.variant === RAW_LABELS) ?? { text: 'Γεια σου κόσμε', label: 'Greek' };

check('translate-tools/tools/wraps-rpcs/detect-language-answers-as-the-rpc', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const outcomes = await Promise.all(
    ['bcp47', 'native'].map(async (format) => {
      const [tool, rpc] = await Promise.all([
        tools.callTool(TOOL, { text: pair.text, language_format: format }),
        grpc.call(M.detectLanguage, { text: pair.text, languageFormat: format }),
      ]);
      const answer = answerOf(tool);
      return { format, ok: answer.ok, diff: mismatches(answer, rpcJson(M.detectLanguage.output, rpc)), shown: shown(answer) };
    }),
  );
  for (const o of outcomes) {
    t.true(o.ok, `${o.format}: ${o.shown}`);
    t.deepEqual(o.diff, [], o.format);
  }
});

check('translate-tools/detect-language/format-default/bcp47-tag-when-omitted', STDIO, async (t, c) => {
  const service = await backend(c, RAW_LABELS);
  const tools = await toolServer(c, { grpcUrl: service.url });
  const [tool, bcp47, native] = await Promise.all([
    tools.callTool(TOOL, { text: labelled.text }),
    service.grpc.call(M.detectLanguage, { text: labelled.text, languageFormat: 'bcp47' }),
    service.grpc.call(M.detectLanguage, { text: labelled.text, languageFormat: 'native' }),
  ]);
  const answer = answerOf(tool);
  t.true(answer.ok, shown(answer));
  t.deepEqual(mismatches(answer, rpcJson(M.detectLanguage.output, bcp47), { fields: ['language'] }), [], `native label: ${native.response?.language}`);
});

check('translate-tools/detect-language/format-default/rpc-format-bcp47', STDIO, async (t, c) => {
  const { stub, tools } = await sharedStub(c);
  const text = `format omitted ${c.id}`;
  await tools.callTool(TOOL, { text });
  const request = await recordedRequest(stub, M.detectLanguage, (r) => r.text === text);
  t.true(['bcp47', ''].includes(request.languageFormat), `language_format sent: ${JSON.stringify(request.languageFormat)}`);
});
