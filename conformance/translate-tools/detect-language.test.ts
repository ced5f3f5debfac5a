// detect_language: answers as DetectLanguage on the same service; language_format defaults to bcp47, seen on
// a service whose detector's raw labels are no BCP-47 tags (the backend's `unscored-detector` variant: script
// names such as "Greek") and in the request the tool sends.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { backend, callThrough, facts, pair, sharedStub, sharedTools, STDIO, toolServer } from './target.ts';
import { answerOf, judge, rpcJson } from './tool-answer.ts';

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
      return { format, answer: answerOf(tool), rpc };
    }),
  );
  for (const { format, answer, rpc } of outcomes) {
    const expected = await c.need(`DetectLanguage called directly with ${format}`, () => rpcJson(M.detectLanguage.output, rpc));
    judge(t, c, answer, M.detectLanguage.output, expected, { label: format, stated: ['language'] });
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
  const expected = await c.need('DetectLanguage called directly with bcp47', () => rpcJson(M.detectLanguage.output, bcp47));
  // A text answer naming the raw label where the tag belongs reports the native format.
  const label = native.response?.language;
  const contrary: Record<string, string[]> = label && label !== expected.language ? { language: [label] } : {};
  judge(t, c, answerOf(tool), M.detectLanguage.output, expected, { fields: ['language'], stated: ['language'], contrary });
});

check('translate-tools/detect-language/format-default/rpc-format-bcp47', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const text = `format omitted ${c.id}`;
  const called = await callThrough(t, c, shared, { tool: TOOL, args: { text } }, M.detectLanguage, (r) => r.text === text, { mustCall: true });
  if (!called) return;
  t.true(['bcp47', ''].includes(called.request.languageFormat), `language_format sent: ${JSON.stringify(called.request.languageFormat)}`);
});
