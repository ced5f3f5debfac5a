// get_capabilities: reports the models available for translation and whether speech-to-text is enabled, as
// GetCapabilities does on the same service, and as a service without STT answers it (a stub); and
// (informational) the voices and TTS availability too.
import { create, toBinary, toJson } from '@bufbuild/protobuf';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { backend, sharedTools, STDIO, stubbed } from './target.ts';
import { answerOf, judge, rpcJson } from './tool-answer.ts';

const M = TranslateService.method;
const TOOL = 'get_capabilities';

check('translate-tools/get-capabilities/result/models-and-stt-as-the-rpc', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([tools.callTool(TOOL, {}), grpc.call(M.getCapabilities, {})]);
  const expected = await c.need('GetCapabilities called directly', () => rpcJson(M.getCapabilities.output, rpc));
  judge(t, c, answerOf(tool), M.getCapabilities.output, expected, { fields: ['availableModels', 'sttAvailable'], stated: ['sttAvailable'] });
});

check('translate-tools/get-capabilities/result/stt-off-reported', STDIO, async (t, c) => {
  // The reference service has STT configured: a service without it is a stub that says so.
  const canned = create(M.getCapabilities.output, { availableModels: ['nllb', 'marian-en-de'], sttAvailable: false, ttsAvailable: true, availableVoices: ['de'] });
  const { tools } = await stubbed(c, () => ({ response: toBinary(M.getCapabilities.output, canned) }));
  const answer = answerOf(await tools.callTool(TOOL, {}));
  const expected = toJson(M.getCapabilities.output, canned, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  // STT off is what the case is about: a text answer must say so (a JSON object may leave the false out).
  judge(t, c, answer, M.getCapabilities.output, expected, { fields: ['availableModels', 'sttAvailable'], stated: ['sttAvailable'] });
});

check('translate-tools/get-capabilities/full-result/voices-and-tts-too', STDIO, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const [tool, rpc] = await Promise.all([tools.callTool(TOOL, {}), grpc.call(M.getCapabilities, {})]);
  const expected = await c.need('GetCapabilities called directly', () => rpcJson(M.getCapabilities.output, rpc));
  judge(t, c, answerOf(tool), M.getCapabilities.output, expected, { stated: ['sttAvailable', 'ttsAvailable'] });
});
