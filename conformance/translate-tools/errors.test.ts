// How failures reach the AI client (all informational: the document shows none of it): a failed RPC as a
// tool error `CODE: message`, an unreachable service as UNAVAILABLE naming the address (and working once the
// service is up), bad arguments as a tool error naming the parameter without calling the service, an unknown
// tool as JSON-RPC -32602, and none of it ending the server. The service is a recording stub throughout: it
// answers with the status a case needs.
import { check } from '../harness/check.ts';
import { freePorts, releasePorts } from '../harness/free-ports.ts';
import { GrpcStub } from '../harness/grpc-stub.ts';
import { pair, REFUSAL, REFUSE, sharedStub, STDIO, stubbed, toolServer } from './target.ts';
import { answerOf, shown } from './tool-answer.ts';

check('translate-tools/errors/grpc-error/tool-error-code-name-and-status-message', STDIO, async (t, c) => {
  const { tools } = await sharedStub(c);
  const answer = answerOf(await tools.callTool('detect_language', { text: REFUSE }));
  t.true(answer.toolError, shown(answer));
  t.is(answer.text, `PERMISSION_DENIED: ${REFUSAL}`);
});

check('translate-tools/errors/service-unreachable/unavailable-naming-the-address-then-works', STDIO, async (t, c) => {
  const [port] = await freePorts(1);
  c.defer(() => releasePorts([port!]));
  const address = `127.0.0.1:${port}`;
  const tools = await toolServer(c, { grpcUrl: address });
  const down = answerOf(await tools.callTool('get_capabilities', {}));
  t.true(down.toolError, shown(down));
  t.regex(down.text, /^UNAVAILABLE: /);
  t.true(down.text.includes(address), `the address is not named: ${down.text}`);
  const service = await new GrpcStub().listen(port);
  c.defer(() => service.close());
  c.note(`# a gRPC stub now listens at ${address}`);
  const up = answerOf(await tools.callTool('get_capabilities', {}));
  t.true(up.ok, `after the service came up: ${shown(up)}`);
});

check('translate-tools/errors/argument-validation/missing-or-wrong-type-named', STDIO, async (t, c) => {
  const { stub, tools } = await stubbed(c);
  const [missing, wrongType] = await Promise.all([
    tools.callTool('translate_text', { text: pair.text }).then(answerOf),
    tools.callTool('detect_language', { text: 42 }).then(answerOf),
  ]);
  t.true(missing.toolError, `target_language missing: ${shown(missing)}`);
  t.true(missing.text.includes('target_language'), `the parameter is not named: ${missing.text}`);
  t.true(wrongType.toolError, `text a number: ${shown(wrongType)}`);
  t.true(wrongType.text.includes('text'), `the parameter is not named: ${wrongType.text}`);
  t.is(stub.calls.length, 0, 'the service was called');
});

check('translate-tools/errors/unknown-tool/json-rpc-invalid-params', STDIO, async (t, c) => {
  const { tools } = await sharedStub(c);
  const outcome = await tools.callTool('translate_everything', { text: pair.text });
  t.is(outcome.error?.code, -32602, JSON.stringify(outcome));
  t.true(outcome.error?.message.includes('translate_everything'), `the tool is not named: ${outcome.error?.message}`);
});

check('translate-tools/errors/never-exits/keeps-serving-after-failures', STDIO, async (t, c) => {
  const { tools } = await stubbed(c);
  const pid = tools.pid;
  // One after the other: each failure must leave a server that takes the next request.
  await tools.callTool('no_such_tool', {});
  await tools.callTool('translate_text', { text: 7, target_language: [] });
  await tools.callTool('detect_language', { text: REFUSE });
  await tools.callTool('transcribe_audio', { file_path: 'relative.wav' });
  await tools.callTool('transcribe_audio', { file_path: '/nonexistent/dir/a.wav' });
  const last = answerOf(await tools.callTool('detect_language', { text: pair.text }));
  t.true(last.ok, shown(last));
  t.is(tools.pid, pid, 'the server process changed or ended');
});
