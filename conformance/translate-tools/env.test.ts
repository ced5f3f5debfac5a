// The environment of the tool server: TRANSLATE_GRPC_URL names the service the tools call (a closed port
// fails, the service succeeds), localhost:5100 when it is unset, and no API key or other credential is
// needed; and (informational) the address forms the reference accepts and its lazy connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { freePorts, releasePorts } from '../harness/free-ports.ts';
import { fixedPort } from '../harness/fixed-port.ts';
import { PROJECT_ROOT } from '../harness/launch.ts';
import { backend, pair, STDIO, toolServer } from './target.ts';
import { answerOf, mismatches, rpcJson, shown } from './tool-answer.ts';

const M = TranslateService.method;
const DEFAULT_PORT = 5100;
/** Names of variables that would carry a credential. */
const KEY_LIKE = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|API/i;

/** A loopback address where nothing listens (claimed for the case, so no other case starts a server there). */
async function closedAddress(c: CaseContext): Promise<string> {
  const [port] = await freePorts(1);
  c.defer(() => releasePorts([port!]));
  return `127.0.0.1:${port}`;
}

const capabilities = { name: 'get_capabilities', args: {} };
/** The golden utterance of the translate suite: a WAV the service's STT transcribes. */
const SPEECH = join(PROJECT_ROOT, 'fixtures', 'translate', 'speech', 'counting.wav');

check('translate-tools/env/grpc-url/closed-port-fails-service-succeeds', STDIO, async (t, c) => {
  const service = await backend(c);
  const [closed, open] = await Promise.all([toolServer(c, { grpcUrl: await closedAddress(c) }), toolServer(c, { grpcUrl: service.url })]);
  const [failing, working, rpc] = await Promise.all([
    closed.callTool(capabilities.name, capabilities.args).then(answerOf),
    open.callTool(capabilities.name, capabilities.args).then(answerOf),
    service.grpc.call(M.getCapabilities, {}),
  ]);
  t.false(failing.ok, `TRANSLATE_GRPC_URL at a closed port: ${shown(failing)}`);
  t.true(working.ok, `TRANSLATE_GRPC_URL at the service: ${shown(working)}`);
  t.deepEqual(mismatches(working, rpcJson(M.getCapabilities.output, rpc), { fields: ['availableModels'] }), []);
});

check(
  'translate-tools/env/grpc-url-default/calls-localhost-5100',
  {
    ...STDIO,
    applicable: (c) => fixedPort(c, DEFAULT_PORT),
  },
  async (t, c) => {
    const service = await backend(c, 'default-port');
    const tools = await toolServer(c, { grpcUrl: null });
    t.is(tools.env.TRANSLATE_GRPC_URL, undefined);
    const [tool, rpc] = await Promise.all([tools.callTool(capabilities.name, capabilities.args), service.grpc.call(M.getCapabilities, {})]);
    const answer = answerOf(tool);
    t.true(answer.ok, shown(answer));
    t.deepEqual(mismatches(answer, rpcJson(M.getCapabilities.output, rpc), { fields: ['availableModels'] }), []);
  },
);

check('translate-tools/auth/no-api-key/serves-with-no-credential', STDIO, async (t, c) => {
  // An empty home: no credential file either.
  const home = mkdtempSync(join(tmpdir(), 'conform-home-'));
  c.defer(() => rmSync(home, { recursive: true, force: true }));
  const tools = await toolServer(c, { env: { HOME: home } });
  t.deepEqual(
    Object.keys(tools.env).filter((name) => KEY_LIKE.test(name)),
    [],
    'variables that look like a credential',
  );
  // Every tool: a server may want a key for some tools only (the ones that cost, say).
  const calls = [
    capabilities,
    { name: 'detect_language', args: { text: pair.text } },
    { name: 'translate_text', args: { text: pair.text, source_language: pair.source, target_language: pair.target } },
    { name: 'translate_localization', args: { json: JSON.stringify({ greeting: pair.text }), source_language: pair.source, target_language: pair.target } },
    { name: 'transcribe_audio', args: { file_path: SPEECH, language: 'en' } },
  ];
  const answers = await Promise.all(calls.map(({ name, args }) => tools.callTool(name, args).then(answerOf)));
  t.deepEqual(
    answers.flatMap((answer, i) => (answer.ok ? [] : [`${calls[i]!.name}: ${shown(answer)}`])),
    [],
    'tools that did not serve the call',
  );
});

// ---------------------------------------------------------------- grpc-url-form (informational)
for (const [name, form] of [
  ['dns-target-accepted', (address: string) => `dns:///${address}`],
  ['http-prefix-ignored', (address: string) => `http://${address}`],
] as const) {
  check(`translate-tools/env/grpc-url-form/${name}`, STDIO, async (t, c) => {
    const service = await backend(c);
    const tools = await toolServer(c, { grpcUrl: form(service.url) });
    const answer = answerOf(await tools.callTool(capabilities.name, capabilities.args));
    t.true(answer.ok, shown(answer));
  });
}

check('translate-tools/env/grpc-url-form/unreachable-service-still-lists-tools', STDIO, async (t, c) => {
  const tools = await toolServer(c, { grpcUrl: await closedAddress(c) });
  t.true((await tools.listTools()).some((tool) => tool.name === 'get_capabilities'), 'get_capabilities is not listed');
});
