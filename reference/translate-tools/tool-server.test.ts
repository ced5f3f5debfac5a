// The tool server against a real translation reference: the listing (five tools, strict schemas with the
// documented parameters) and each tool's result against the RPC it wraps.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { toJson } from '@bufbuild/protobuf';
import test from 'ava';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { startTestServer, type TestServer } from '../translate/grpc/test-server.ts';
import { PROJECT_ROOT, startToolServer, type ToolSession } from './test-client.ts';

const TRANSLATION = { Models: { pseudo: { adapter: 'pseudo' } }, DefaultModel: 'pseudo', AudioToText: { engine: 'pocketsphinx' } };

/** The document's table: required and optional parameters of each tool. */
const DOCUMENTED: Record<string, { required: string[]; optional: string[] }> = {
  translate_text: { required: ['text', 'target_language'], optional: ['source_language', 'model', 'language_format'] },
  detect_language: { required: ['text'], optional: ['language_format'] },
  translate_localization: { required: ['json', 'source_language', 'target_language'], optional: ['model', 'existing_translation', 'language_format'] },
  transcribe_audio: { required: ['file_path'], optional: ['language', 'language_format'] },
  get_capabilities: { required: [], optional: [] },
};

let service: TestServer;
let tools: ToolSession;

test.before(async () => {
  service = await startTestServer(TRANSLATION);
  tools = await startToolServer(`http://127.0.0.1:${service.port}`);
});

test.after.always(async () => {
  await tools?.close();
  service?.stop();
});

const json = (text: string): unknown => JSON.parse(text);

test('initialisation: serverInfo translate-tools with the package version, only the tools capability', (t) => {
  const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
  t.deepEqual(tools.client.getServerVersion(), { name: 'translate-tools', version });
  t.deepEqual(Object.keys(tools.client.getServerCapabilities() ?? {}), ['tools']);
});

test('exactly the five documented tools, each strict with the documented parameters, all described', async (t) => {
  const { tools: listed } = await tools.client.listTools();
  t.deepEqual(listed.map((tool) => tool.name).sort(), Object.keys(DOCUMENTED).sort());
  for (const tool of listed) {
    const documented = DOCUMENTED[tool.name]!;
    const schema = tool.inputSchema as { type: string; properties: Record<string, { type: string; description?: string }>; required?: string[]; additionalProperties: unknown };
    t.is(schema.type, 'object', tool.name);
    t.is(schema.additionalProperties, false, tool.name);
    t.deepEqual(Object.keys(schema.properties).sort(), [...documented.required, ...documented.optional].sort(), tool.name);
    t.deepEqual((schema.required ?? []).sort(), [...documented.required].sort(), tool.name);
    t.true((tool.description ?? '').length > 20, tool.name);
    for (const [name, property] of Object.entries(schema.properties)) {
      t.is(property.type, 'string', `${tool.name}.${name}`);
      t.true((property.description ?? '').length > 10, `${tool.name}.${name}`);
    }
    t.is(tool.outputSchema, undefined, tool.name);
  }
});

test('translate_text with the pseudo model gives what TranslateText gives, as text and structuredContent', async (t) => {
  const result = await tools.call('translate_text', { text: 'Hello world, {name}!', target_language: 'de', source_language: 'en', model: 'pseudo' });
  const rpc = await service.call(TranslateService.method.translateText, { text: 'Hello world, {name}!', targetLanguage: 'de', sourceLanguage: 'en', model: 'pseudo' });
  const expected = toJson(TranslateService.method.translateText.output, rpc, { alwaysEmitImplicit: true });
  t.false(result.isError);
  t.is(result.content.length, 1);
  t.deepEqual(json(result.text), expected);
  t.deepEqual(result.structuredContent, expected);
  t.deepEqual(json(result.text), { translatedText: rpc.translatedText, detectedLanguage: '', modelUsed: 'pseudo' });
});

test('translate_text defaults: source auto (detected language reported), default model, BCP-47', async (t) => {
  const result = await tools.call('translate_text', { text: 'The weather is very nice today and we are going to the park.', target_language: 'fr' });
  t.false(result.isError);
  t.like(json(result.text), { detectedLanguage: 'en', modelUsed: 'pseudo' });
});

test('translate_text: language_format native is accepted; flores200 comes back as INVALID_ARGUMENT', async (t) => {
  const native = await tools.call('translate_text', { text: 'Hello', source_language: 'eng', target_language: 'deu', language_format: 'native' });
  t.false(native.isError, native.text);
  const flores = await tools.call('translate_text', { text: 'Hello', target_language: 'deu_Latn', language_format: 'flores200' });
  t.true(flores.isError);
  t.regex(flores.text, /^INVALID_ARGUMENT: /);
});

test('detect_language gives what DetectLanguage gives, BCP-47 by default', async (t) => {
  const text = 'Der Hund läuft schnell über die große Wiese.';
  const result = await tools.call('detect_language', { text });
  const rpc = await service.call(TranslateService.method.detectLanguage, { text });
  t.false(result.isError);
  t.deepEqual(json(result.text), toJson(TranslateService.method.detectLanguage.output, rpc, { alwaysEmitImplicit: true }));
});

test('translate_localization gives what TranslateLocalization gives', async (t) => {
  const file = readFileSync(join(PROJECT_ROOT, 'fixtures/translate/localization/app-ui.in.json'), 'utf8');
  const result = await tools.call('translate_localization', { json: file, source_language: 'en', target_language: 'es' });
  const rpc = await service.call(TranslateService.method.translateLocalization, { json: file, sourceLanguage: 'en', targetLanguage: 'es' });
  t.false(result.isError, result.text);
  t.deepEqual(json(result.text), { json: rpc.json, stringsTranslated: rpc.stringsTranslated });
  t.true(rpc.stringsTranslated > 0);
});

test('translate_localization: auto is not a valid source', async (t) => {
  const result = await tools.call('translate_localization', { json: '{"a":"Hello"}', source_language: 'auto', target_language: 'es' });
  t.true(result.isError);
  t.regex(result.text, /^INVALID_ARGUMENT: /);
});

test('get_capabilities gives the full GetCapabilitiesResponse', async (t) => {
  const result = await tools.call('get_capabilities');
  t.false(result.isError);
  t.deepEqual(json(result.text), { availableVoices: [], availableModels: ['pseudo'], sttAvailable: true, ttsAvailable: false });
});

test('transcribe_audio reads the WAV file and transcribes it', async (t) => {
  const result = await tools.call('transcribe_audio', { file_path: join(PROJECT_ROOT, 'fixtures/translate/speech/counting.wav') });
  t.false(result.isError, result.text);
  const heard = json(result.text) as { fullText: string; segments: { text: string }[]; detectedLanguage: string };
  t.regex(heard.fullText, /\bthree\b/);
  t.is(heard.fullText, heard.segments.map((segment) => segment.text).join(' '));
  t.is(heard.detectedLanguage, 'en');
});
