// transcribe_audio: the file at the absolute file_path is read and its bytes sent as audio_data with the
// language hint (seen at a recording stub), and the answer is TranscribeAudio's on the same service for the
// same bytes; and (informational) the reference's choices for a relative path, a missing, unreadable or
// oversize file, the omitted language, and a file that is no WAV.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import type { GrpcStub } from '../harness/grpc-stub.ts';
import { PROJECT_ROOT } from '../harness/launch.ts';
import { backend, callThrough, markedWav, STT_CASE, sharedStub, sharedTools, STDIO, stubbed } from './target.ts';
import { answerOf, judge, rpcJson, shown } from './tool-answer.ts';

const M = TranslateService.method;
const TOOL = 'transcribe_audio';
/** The golden utterance of the translate suite ("two three four five six", 22.05 kHz mono). */
const SPEECH = join(PROJECT_ROOT, 'fixtures', 'translate', 'speech', 'counting.wav');
const speech = readFileSync(SPEECH);
/** The service's bound on audio_data. */
const LIMIT = 52_428_800;
/** The clause of reading the file and sending it: whether the other cases see a call at all. */
const READS_FILE = 'translate-tools/transcribe-audio/reads-file';
/** The shared stub of the cases whose file the tool must refuse: none of their files may reach the service
 * (each case's file carries its ID; a case without a file has a stub of its own). */
const NEVER_CALLED = 'never-called';
/** Calls at a shared stub carrying the case's marker. */
const callsOf = (c: CaseContext, stub: GrpcStub): number => stub.calls.filter((x) => Buffer.from(x.message).includes(c.id)).length;

/** A fresh folder for the case's files (removed afterwards), with an awkward name. */
function folder(c: CaseContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'conform-tools-'));
  c.defer(() => rmSync(dir, { recursive: true, force: true }));
  const inner = join(dir, 'Aufnahmen #1 ü');
  mkdirSync(inner);
  return inner;
}

/** A WAV no other case sends: the recording stub tells the calls of concurrent cases apart by the case ID
 * inside it. */
const marked = (c: CaseContext): Buffer => markedWav(c.id);
const carries = (c: CaseContext) => (request: { audioData: Uint8Array }) => Buffer.from(request.audioData).includes(c.id);

// ---------------------------------------------------------------- reads-file
check('translate-tools/transcribe-audio/reads-file/sends-the-file-bytes-and-hint', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  // The file's bytes, whole, are what identifies the call (a truncated file is no such call).
  const called = await callThrough(
    t,
    c,
    shared,
    { tool: TOOL, args: { file_path: SPEECH, language: 'en' } },
    M.transcribeAudio,
    (r) => Buffer.from(r.audioData).equals(speech),
    { mustCall: true },
  );
  if (!called) return;
  t.is(called.request.language, 'en');
  t.is(called.request.audioData.length, speech.length);
});

check('translate-tools/transcribe-audio/reads-file/auto-hint-sent-as-detect', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const path = join(folder(c), 'auto hint.wav');
  writeFileSync(path, marked(c));
  const called = await callThrough(t, c, shared, { tool: TOOL, args: { file_path: path, language: 'auto' } }, M.transcribeAudio, carries(c), { mustCall: true });
  if (!called) return;
  // Empty and `auto` both ask the service to detect.
  t.true(['auto', ''].includes(called.request.language), `language sent: ${JSON.stringify(called.request.language)}`);
});

check('translate-tools/transcribe-audio/reads-file/transcribes-as-the-rpc', STT_CASE, async (t, c) => {
  const [tools, { grpc }] = await Promise.all([sharedTools(c), backend(c)]);
  const path = join(folder(c), 'zählen (1).wav');
  writeFileSync(path, speech);
  const [tool, rpc] = await Promise.all([
    tools.callTool(TOOL, { file_path: path, language: 'en' }),
    grpc.call(M.transcribeAudio, { audioData: speech, language: 'en' }),
  ]);
  const expected = await c.need('TranscribeAudio called directly', () => rpcJson(M.transcribeAudio.output, rpc));
  judge(t, c, answerOf(tool), M.transcribeAudio.output, expected);
});

// ---------------------------------------------------------------- informational: files the tool refuses
check('translate-tools/transcribe-audio/relative-path/invalid-argument-not-read', STDIO, async (t, c) => {
  const { stub, tools } = await sharedStub(c, NEVER_CALLED);
  const relative = `${c.id.split('/').pop()}.wav`;
  // The file is there relative to the server's working directory: refused anyway.
  writeFileSync(join(tools.dir, relative), marked(c));
  const answer = answerOf(await tools.callTool(TOOL, { file_path: relative }));
  t.true(answer.toolError, shown(answer));
  t.regex(answer.text, /^INVALID_ARGUMENT: .*absolute/is);
  t.is(callsOf(c, stub), 0, 'the service was called with the file');
});

check('translate-tools/transcribe-audio/missing-file/not-found-names-the-path', STDIO, async (t, c) => {
  const { stub, tools } = await stubbed(c);
  const path = join(folder(c), 'nowhere', 'ghost #2.wav');
  const answer = answerOf(await tools.callTool(TOOL, { file_path: path }));
  t.true(answer.toolError, shown(answer));
  t.regex(answer.text, /^NOT_FOUND: /);
  t.true(answer.text.includes(path), `the path is not named: ${answer.text}`);
  t.is(stub.calls.length, 0, 'the service was called');
});

check('translate-tools/transcribe-audio/missing-file/directory-is-not-found', STDIO, async (t, c) => {
  const { stub, tools } = await stubbed(c);
  const answer = answerOf(await tools.callTool(TOOL, { file_path: folder(c) }));
  t.true(answer.toolError, shown(answer));
  t.regex(answer.text, /^NOT_FOUND: /);
  t.is(stub.calls.length, 0, 'the service was called');
});

/** A kernel setting only its owner may write and nobody may read: root, whom a file's mode does not stop
 * (the tool server runs as the suite's user), cannot read it either. */
const WRITE_ONLY_SETTING = '/proc/sys/vm/compact_memory';

/** A path the tool server cannot read: a file of mode 000, or for root the write-only kernel setting. */
function unreadablePath(c: CaseContext): string {
  if (process.getuid?.() !== 0) {
    const path = join(folder(c), 'locked.wav');
    writeFileSync(path, marked(c), { mode: 0o000 });
    return path;
  }
  try {
    readFileSync(WRITE_ONLY_SETTING);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EACCES') return WRITE_ONLY_SETTING;
  }
  return c.inconclusive(`the suite runs as root, for whom a file's mode is no bar, and ${WRITE_ONLY_SETTING} is not unreadable here either`);
}

check('translate-tools/transcribe-audio/missing-file/unreadable-is-permission-denied', STDIO, async (t, c) => {
  const { stub, tools } = await sharedStub(c, NEVER_CALLED);
  const path = unreadablePath(c);
  const answer = answerOf(await tools.callTool(TOOL, { file_path: path }));
  t.true(answer.toolError, shown(answer));
  t.regex(answer.text, /^PERMISSION_DENIED: /);
  t.true(answer.text.includes(path), `the path is not named: ${answer.text}`);
  t.is(callsOf(c, stub), 0, 'the service was called with the file');
});

check('translate-tools/transcribe-audio/oversize-file/resource-exhausted-names-the-limit', STDIO, async (t, c) => {
  const { stub, tools } = await sharedStub(c, NEVER_CALLED);
  const path = join(folder(c), 'long.wav');
  writeFileSync(path, marked(c));
  truncateSync(path, LIMIT + 1); // sparse: no 50 MB written
  const answer = answerOf(await tools.callTool(TOOL, { file_path: path }));
  t.true(answer.toolError, shown(answer));
  t.regex(answer.text, /^RESOURCE_EXHAUSTED: /);
  t.regex(answer.text, /52428800|52,428,800|50 ?MB/i, 'the limit is not named');
  t.is(callsOf(c, stub), 0, 'the service was called with the file');
});

check('translate-tools/transcribe-audio/oversize-file/limit-itself-is-sent', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const path = join(folder(c), 'just fits.wav');
  writeFileSync(path, speech.subarray(0, 44));
  truncateSync(path, LIMIT);
  const called = await callThrough(t, c, shared, { tool: TOOL, args: { file_path: path } }, M.transcribeAudio, (r) => r.audioData.length === LIMIT, {
    mustCall: true,
  });
  if (!called) return;
  t.true(called.answer.ok, shown(called.answer));
});

// ---------------------------------------------------------------- informational: defaults
check('translate-tools/transcribe-audio/language-default/omitted-sent-empty', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const path = join(folder(c), 'no hint.wav');
  writeFileSync(path, marked(c));
  const called = await callThrough(t, c, shared, { tool: TOOL, args: { file_path: path } }, M.transcribeAudio, carries(c), { mustCall: false, callClause: READS_FILE });
  if (!called) return;
  const { request } = called;
  t.deepEqual({ language: request.language, languageFormat: request.languageFormat }, { language: '', languageFormat: '' });
});

check('translate-tools/transcribe-audio/language-default/no-wav-gets-the-service-error', STT_CASE, async (t, c) => {
  const tools = await sharedTools(c);
  const path = join(folder(c), 'notes.wav');
  writeFileSync(path, 'these are notes, not audio\n');
  const answer = answerOf(await tools.callTool(TOOL, { file_path: path }));
  t.true(answer.toolError, shown(answer));
  t.regex(answer.text, /^INVALID_ARGUMENT: /);
});
