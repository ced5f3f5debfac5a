// get_capabilities: reports the models available for translation and whether speech-to-text is enabled, as
// GetCapabilities does on the same service, and as a service without STT answers it (a stub); and
// (informational) the voices and TTS availability too.
import { create, toBinary, toJson } from '@bufbuild/protobuf';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { backend, sharedTools, STDIO, stubbed } from './target.ts';
import { answerOf, mismatches, rpcJson, shown } from './tool-answer.ts';

const M = TranslateService.method;
const TOOL = 'get_capabilities';

check('translate-tools/get-capabilities/result/models-and-stt-as-the-rpc', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([tools.callTool(TOOL, {}), grpc.call(M.getCapabilities, {})]);
  const answer = answerOf(tool);
  t.true(answer.ok, shown(answer));
  t.deepEqual(mismatches(answer, rpcJson(M.getCapabilities.output, rpc), { fields: ['availableModels', 'sttAvailable'] }), []);
});

check('translate-tools/get-capabilities/result/stt-off-reported', STDIO, async (t, c) => {
  // The reference service has STT configured: a service without it is a stub that says so.
  const canned = create(M.getCapabilities.output, { availableModels: ['nllb', 'marian-en-de'], sttAvailable: false, ttsAvailable: true, availableVoices: ['de'] });
  const { tools } = await stubbed(c, () => ({ response: toBinary(M.getCapabilities.output, canned) }));
  const answer = answerOf(await tools.callTool(TOOL, {}));
  t.true(answer.ok, shown(answer));
  const expected = toJson(M.getCapabilities.output, canned, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  t.deepEqual(mismatches(answer, expected, { fields: ['availableModels', 'sttAvailable'] }), []);
});

check('translate-tools/get-capabilities/full-result/voices-and-tts-too', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([tools.callTool(TOOL, {}), grpc.call(M.getCapabilities, {})]);
  const answer = answerOf(tool);
  t.true(answer.ok, shown(answer));
  t.deepEqual(mismatches(answer, rpcJson(M.getCapabilities.output, rpc)), []);
});
