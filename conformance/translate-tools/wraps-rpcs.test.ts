// Each tool calls its RPC with the tool's arguments copied into the request fields of the same names, seen
// at a recording stub in place of the service (every argument a valid value: a tool may check its
// arguments); and (informational) the reference's result form (the response in protobuf JSON, once as text
// and once as structuredContent) and its gRPC calls without a deadline, cancelled with the tool call.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, type DescMessage, toBinary, toJson } from '@bufbuild/protobuf';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { DOCUMENTED_TOOLS, type DocumentedTool } from './documented-tools.ts';
import { within } from '../harness/within.ts';
import { callThrough, facts, HANG, listing, markedWav, nativePair, pair, sharedStub, STDIO, stubbed } from './target.ts';

const M = TranslateService.method;
/** HTTP/2 RST_STREAM code of a cancelled stream. */
const CANCEL = 8;
const camel = (name: string): string => name.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
/** A tool taking a file calls the service only once it has read the file: that it reads and sends it is this
 * clause's, and without the call the case cannot judge the fields. */
const READS_FILE = 'translate-tools/transcribe-audio/reads-file';

/** Arguments for every parameter of `doc`, each a value the document allows: language_format `native` (a
 * value a tool cannot mistake for its default), the pair's codes, JSON documents of one structure, a WAV
 * file. The text, the documents and the file carry the case ID, which tells the stub's calls apart. Returns
 * the arguments and the request fields they should arrive as. */
function argumentsFor(c: CaseContext, doc: DocumentedTool, dir: string): { args: Record<string, string>; fields: Record<string, unknown> } {
  const values: Record<string, string> = {
    text: `wrapped ${c.id}`,
    source_language: nativePair.source,
    target_language: nativePair.target,
    language: nativePair.source,
    model: facts.defaultModel || 'pseudo',
    language_format: 'native',
    json: JSON.stringify({ greeting: `wrapped ${c.id}` }),
    existing_translation: JSON.stringify({ greeting: `envuelto ${c.id}` }),
  };
  const args: Record<string, string> = {};
  const fields: Record<string, unknown> = {};
  for (const name of [...doc.required, ...doc.optional]) {
    if (name === 'file_path') {
      const bytes = markedWav(c.id);
      args.file_path = join(dir, 'wrapped #3.wav');
      writeFileSync(args.file_path, bytes);
      fields.audioData = [...bytes];
      continue;
    }
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${doc.name}.${name}`);
    args[name] = value;
    fields[camel(name)] = value;
  }
  return { args, fields };
}

for (const doc of DOCUMENTED_TOOLS) {
  const rpc = doc.method.name.replace(/[A-Z]/g, (ch: string, i: number) => `${i > 0 ? '-' : ''}${ch.toLowerCase()}`);
  check(`translate-tools/tools/wraps-rpcs/${doc.name.replace(/_/g, '-')}-calls-${rpc}-with-its-arguments`, STDIO, async (t, c) => {
    const shared = await sharedStub(c);
    const { args, fields } = argumentsFor(c, doc, shared.tools.dir);
    // get_capabilities has no argument to tell its call apart: it is the only one in this file.
    const marked = (request: object): boolean => doc.required.length === 0 || Buffer.from(toBinary(doc.method.input as DescMessage, request as never)).includes(c.id);
    const calls = doc.required.includes('file_path') ? { mustCall: false, callClause: READS_FILE } : { mustCall: true };
    const called = await callThrough(t, c, shared, { tool: doc.name, args }, doc.method, marked, calls);
    if (!called) return;
    const request = called.request as unknown as Record<string, unknown>;
    const sent = Object.fromEntries(Object.keys(fields).map((k) => [k, request[k] instanceof Uint8Array ? [...(request[k] as Uint8Array)] : request[k]]));
    t.deepEqual(sent, fields);
  });
}

// ---------------------------------------------------------------- result-format (informational)
check('translate-tools/tools/result-format/response-json-as-text-and-structured-content', STDIO, async (t, c) => {
  // detectedLanguage empty: with every field included it is there all the same.
  const canned = create(M.translateText.output, { translatedText: 'Buenos días, «amigos» ✓', detectedLanguage: '', modelUsed: 'pseudo' });
  const { tools } = await stubbed(c, () => ({ response: toBinary(M.translateText.output, canned) }));
  const tool = await tools.callTool('translate_text', { text: pair.text, source_language: pair.source, target_language: pair.target });
  const expected = toJson(M.translateText.output, canned, { alwaysEmitImplicit: true });
  t.true(tool.result !== undefined, tool.error?.message);
  const result = tool.result!;
  t.is(result.isError ?? false, false);
  t.deepEqual(
    result.content.map((item) => item.type),
    ['text'],
  );
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = `(not JSON) ${text}`;
  }
  t.deepEqual(parsed, expected, 'the text item');
  t.deepEqual(result.structuredContent, expected, 'structuredContent');
});

check('translate-tools/tools/result-format/no-output-schema', STDIO, async (t, c) => {
  const tools = await listing(c);
  t.deepEqual(
    tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name),
    [],
    'tools declaring an output schema',
  );
});

// ---------------------------------------------------------------- call-deadline (informational)
check('translate-tools/tools/call-deadline/no-grpc-timeout-sent', STDIO, async (t, c) => {
  const shared = await sharedStub(c);
  const text = `deadline ${c.id}`;
  const called = await callThrough(t, c, shared, { tool: 'detect_language', args: { text } }, M.detectLanguage, (r) => r.text === text, { mustCall: false });
  const call = shared.stub.calls.find((x) => Buffer.from(x.message).includes(text));
  t.is(call?.headers['grpc-timeout'], undefined, `grpc-timeout header; the tool answered: ${called?.answer.text}`);
});

check('translate-tools/tools/call-deadline/cancelled-tool-call-cancels-the-rpc', STDIO, async (t, c) => {
  const { stub, tools } = await sharedStub(c);
  const text = `${HANG} ${c.id}`;
  const abort = new AbortController();
  const pending = tools.callTool('detect_language', { text }, { signal: abort.signal }).catch((err: unknown) => err);
  const call = await c.need(
    'the call reaching the service',
    stub.waitForCall((x) => Buffer.from(x.message).includes(text)),
  );
  abort.abort();
  await pending;
  t.is(await within(call.closed, 3000, 'still open after 3 s'), CANCEL, 'the RPC stream did not end with RST_STREAM CANCEL');
});
