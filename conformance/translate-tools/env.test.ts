// The environment of the tool server: TRANSLATE_GRPC_URL names the service the tools call (a recording stub
// there sees the call), localhost:5100 when it is unset (a stub on that port), and no API key or other
// credential is needed (every tool serves a call with none in the environment and an empty home folder); and
// (informational) the address forms the reference accepts and its lazy connection. These cases judge where
// the calls go and whether they are served, not the form of the answers.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { fixedPort } from '../harness/fixed-port.ts';
import { freePorts, releasePorts } from '../harness/free-ports.ts';
import { GrpcStub } from '../harness/grpc-stub.ts';
import { PROJECT_ROOT } from '../harness/launch.ts';
import { backend, callThrough, pair, STDIO, serviceStt, toolServer } from './target.ts';
import { answerOf, shown } from './tool-answer.ts';

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

const capabilities = { tool: 'get_capabilities', args: {} };
/** The golden utterance of the translate suite: a WAV the service's STT transcribes. */
const SPEECH = join(PROJECT_ROOT, 'fixtures', 'translate', 'speech', 'counting.wav');
/** The clause of transcribe_audio reading its file, which its call with no credential relies on. */
const READS_FILE = 'translate-tools/transcribe-audio/reads-file';
/** How long after the tool answered its request may still reach the stub. */
const CALL_AFTER_ANSWER_MS = 3_000;

/** Whether a tool server with `env` sends the file of transcribe_audio to a recording stub: a server that
 * does not read the file there either does not serve the call for the file, whatever the credentials. */
async function sendsFile(c: CaseContext, env: Record<string, string>, args: Record<string, unknown>): Promise<boolean> {
  const stub = await new GrpcStub().listen();
  c.defer(() => stub.close());
  c.note(`# transcribe_audio once more, by a tool server with the same environment calling a recording stub at ${stub.address}`);
  const tools = await toolServer(c, { grpcUrl: stub.address, env });
  await tools.callTool('transcribe_audio', args);
  const call = await stub.waitForCall((x) => x.path === `/${TranslateService.typeName}/${M.transcribeAudio.name}`, CALL_AFTER_ANSWER_MS).catch(() => undefined);
  return call !== undefined;
}

check('translate-tools/env/grpc-url/calls-the-named-address', STDIO, async (t, c) => {
  const stub = await new GrpcStub().listen();
  c.defer(() => stub.close());
  c.note(`# a recording gRPC stub at ${stub.address}`);
  const tools = await toolServer(c, { grpcUrl: stub.address });
  // Whatever the tool answers to the stub's empty response: the call reaching the address is the point.
  const called = await callThrough(t, c, { stub, tools }, capabilities, M.getCapabilities, () => true, { mustCall: true });
  if (called) t.pass(`GetCapabilities reached ${stub.address}`);
});

check(
  'translate-tools/env/grpc-url-default/calls-localhost-5100',
  {
    ...STDIO,
    applicable: (c) => fixedPort(c, DEFAULT_PORT),
  },
  async (t, c) => {
    const stub = await new GrpcStub().listen(DEFAULT_PORT);
    c.defer(() => stub.close());
    c.note(`# a recording gRPC stub at ${stub.address}`);
    const tools = await toolServer(c, { grpcUrl: null });
    t.is(tools.env.TRANSLATE_GRPC_URL, undefined);
    const called = await callThrough(t, c, { stub, tools }, capabilities, M.getCapabilities, () => true, { mustCall: true });
    if (called) t.pass(`GetCapabilities reached ${stub.address}`);
  },
);

check('translate-tools/auth/no-api-key/serves-with-no-credential', STDIO, async (t, c) => {
  const keyLike = Object.keys({ ...c.target.env }).filter((name) => KEY_LIKE.test(name));
  if (keyLike.length > 0) c.inconclusive(`the target's own environment sets ${keyLike.join(', ')}: the case cannot start it without what may be a credential`);
  // A real, empty, writable home folder of the server's own: no credential file in it (a server may read an
  // optional configuration from there, or keep a cache).
  const home = mkdtempSync(join(tmpdir(), 'conform-home-'));
  chmodSync(home, 0o700);
  c.defer(() => rmSync(home, { recursive: true, force: true }));
  const env = { HOME: home };
  const [tools, service] = await Promise.all([toolServer(c, { env }), backend(c)]);
  c.note(`# HOME=${home} (empty)`);
  // Every tool: a server may want a key for some tools only (the ones that cost, say).
  const calls: { tool: string; args: Record<string, unknown>; rpc: () => Promise<{ codeName: string; message: string }> }[] = [
    { ...capabilities, rpc: () => service.grpc.call(M.getCapabilities, {}) },
    { tool: 'detect_language', args: { text: pair.text }, rpc: () => service.grpc.call(M.detectLanguage, { text: pair.text }) },
    {
      tool: 'translate_text',
      args: { text: pair.text, source_language: pair.source, target_language: pair.target },
      rpc: () => service.grpc.call(M.translateText, { text: pair.text, sourceLanguage: pair.source, targetLanguage: pair.target }),
    },
    {
      tool: 'translate_localization',
      args: { json: JSON.stringify({ greeting: pair.text }), source_language: pair.source, target_language: pair.target },
      rpc: () =>
        service.grpc.call(M.translateLocalization, { json: JSON.stringify({ greeting: pair.text }), sourceLanguage: pair.source, targetLanguage: pair.target }),
    },
  ];
  // A service without speech to text (a machine without its engine) cannot show what the tool does with it.
  if (await serviceStt(c)) {
    calls.push({
      tool: 'transcribe_audio',
      args: { file_path: SPEECH, language: 'en' },
      rpc: () => service.grpc.call(M.transcribeAudio, { audioData: readFileSync(SPEECH), language: 'en' }),
    });
  } else {
    c.note('# transcribe_audio left out: the translation service reports stt_available false');
  }
  const results = await Promise.all(
    calls.map(async ({ tool, args, rpc }) => {
      const [answer, direct] = await Promise.all([tools.callTool(tool, args).then(answerOf), rpc()]);
      return { tool, answer, direct };
    }),
  );
  // A tool that fails where the service itself refuses the same call says nothing about credentials.
  const refused = results.filter((r) => r.direct.codeName !== 'OK');
  if (refused.length > 0) c.inconclusive(`the service itself refuses: ${refused.map((r) => `${r.tool}: ${r.direct.codeName} ${r.direct.message}`).join('; ')}`);
  // transcribe_audio must read its file before it calls: one that did not serve the call, and with the same
  // environment does not send the file to a recording stub either, may refuse the file (READS_FILE) as well as
  // want a credential, and the case cannot tell which. It is left out of the verdict on the other tools.
  const transcribe = results.find((r) => r.tool === 'transcribe_audio');
  const fileUnsent = transcribe !== undefined && !transcribe.answer.ok && !(await sendsFile(c, env, calls.find((x) => x.tool === 'transcribe_audio')!.args));
  t.deepEqual(
    results.flatMap(({ tool, answer }) => (answer.ok || (fileUnsent && tool === 'transcribe_audio') ? [] : [`${tool}: ${shown(answer)}`])),
    [],
    'tools that did not serve the call with no credential configured',
  );
  if (fileUnsent) {
    c.inconclusive(
      `transcribe_audio did not serve the call (${shown(transcribe.answer)}), and sends no TranscribeAudio for ${SPEECH} to a recording stub ` +
        `either: it does not read the file there, whether it refuses the file or the call (${READS_FILE}, whose cases run with no credential too)`,
    );
  }
});

// ---------------------------------------------------------------- grpc-url-form (informational)
for (const [name, form] of [
  ['dns-target-accepted', (address: string) => `dns:///${address}`],
  ['http-prefix-ignored', (address: string) => `http://${address}`],
] as const) {
  check(`translate-tools/env/grpc-url-form/${name}`, STDIO, async (t, c) => {
    const service = await backend(c);
    const tools = await toolServer(c, { grpcUrl: form(service.url) });
    const answer = answerOf(await tools.callTool(capabilities.tool, capabilities.args));
    t.true(answer.ok, shown(answer));
  });
}

check('translate-tools/env/grpc-url-form/unreachable-service-still-lists-tools', STDIO, async (t, c) => {
  const tools = await toolServer(c, { grpcUrl: await closedAddress(c) });
  t.true((await tools.listTools()).some((tool) => tool.name === 'get_capabilities'), 'get_capabilities is not listed');
});
