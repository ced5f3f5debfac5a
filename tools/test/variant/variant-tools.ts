// A permitted-variant tool server, for proving that the translate-tools suite passes a different but right
// implementation: an MCP server on stdio written apart from the reference (hand-written schemas and argument
// checks, its own gRPC client over node:http2), serving the five documented tools by calling the translation
// service at TRANSLATE_GRPC_URL (default localhost:5100). Out of the box it makes the reference's recorded
// choices; each variant named in VARIANTS (comma-separated, see variant-tools-variants.ts) makes another
// choice the document leaves open.
//
//   VARIANTS=a,b node --import <root>/node_modules/tsx/dist/loader.mjs tools/test/variant/variant-tools.ts
import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, type DescMessage, type DescMethod, fromBinary, type MessageShape, toBinary, toJson } from '@bufbuild/protobuf';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type CallToolResult, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { ToolsVariant } from './variant-tools-variants.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const variants = new Set((process.env.VARIANTS ?? '').split(',').filter(Boolean) as ToolsVariant[]);
const on = (v: ToolsVariant): boolean => variants.has(v);
const log = (line: string): void => {
  if (on('stderr-logs')) process.stderr.write(`[variant-tools ${new Date().toISOString()}] ${line}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The service's bound on audio_data (50 MB). */
const AUDIO_LIMIT = 52_428_800;
const RPC = TranslateService.method;

// ---------------------------------------------------------------- failures

type FailureKind = 'arguments' | 'rpc' | 'unavailable' | 'file';

/** A failed tool call: a gRPC status name, a message, and what failed (for the wording variants). */
class Failure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: FailureKind,
  ) {
    super(message);
  }
}

const CODES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

function wording(failure: Failure): string {
  if (!on('error-wording')) return `${failure.code}: ${failure.message}`;
  const words = failure.code.toLowerCase().replace(/_/g, ' ');
  switch (failure.kind) {
    case 'rpc':
      return `The translation service refused the call (${words}): ${failure.message}`;
    case 'unavailable':
      return `Cannot reach the translation service. ${failure.message}`;
    case 'file':
      return `Cannot use the audio file (${words}). ${failure.message}`;
    default:
      return `Invalid arguments. ${failure.message}`;
  }
}

// ---------------------------------------------------------------- the gRPC client (node:http2)

/** TRANSLATE_GRPC_URL as host:port, or why it is not usable. */
function address(): { authority?: string; shown: string; problem?: string } {
  const raw = (process.env.TRANSLATE_GRPC_URL ?? '').trim() || 'localhost:5100';
  if (on('bare-address')) {
    return /^(\[[0-9a-f:]+\]|[\w.-]+):\d+$/i.test(raw) ? { authority: raw, shown: raw } : { shown: raw, problem: `TRANSLATE_GRPC_URL must be host:port, got "${raw}"` };
  }
  const authority = raw.replace(/^dns:\/\/\//i, '').replace(/^http:\/\//i, '').replace(/\/$/, '');
  return { authority, shown: raw };
}

function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

class Service {
  readonly #target = address();
  #session: ClientHttp2Session | undefined;
  #sessionError: Error | undefined;

  get shown(): string {
    return this.#target.shown;
  }

  #connect(authority: string): ClientHttp2Session {
    const current = this.#session;
    if (current && !current.closed && !current.destroyed) return current;
    const session = connect(`http://${authority}`);
    this.#sessionError = undefined;
    session.on('error', (err) => {
      this.#sessionError = err;
    });
    session.on('close', () => {
      if (this.#session === session) this.#session = undefined;
    });
    this.#session = session;
    return session;
  }

  call<M extends DescMethod & { input: DescMessage; output: DescMessage }>(
    method: M,
    request: MessageShape<M['input']>,
    signal: AbortSignal,
  ): Promise<MessageShape<M['output']>> {
    const { authority, problem } = this.#target;
    if (!authority) return Promise.reject(new Failure('INVALID_ARGUMENT', problem!, 'unavailable'));
    return new Promise((resolvePromise, reject) => {
      const unavailable = (err: Error): Failure =>
        new Failure('UNAVAILABLE', `translation service at ${this.#target.shown}: ${(this.#sessionError ?? err).message}`, 'unavailable');
      let session: ClientHttp2Session;
      try {
        session = this.#connect(authority);
      } catch (err) {
        reject(unavailable(err as Error));
        return;
      }
      const payload = toBinary(method.input, request);
      const frame = Buffer.alloc(5 + payload.length);
      frame.writeUInt32BE(payload.length, 1);
      frame.set(payload, 5);
      const headers: Record<string, string> = {
        ':method': 'POST',
        ':path': `/${method.parent.typeName}/${method.name}`,
        'content-type': 'application/grpc',
        te: 'trailers',
      };
      if (on('deadline')) headers['grpc-timeout'] = '120S';
      const stream = session.request(headers);
      const chunks: Buffer[] = [];
      let status: string | undefined;
      let message = '';
      const take = (h: Record<string, unknown>): void => {
        if (h['grpc-status'] === undefined) return;
        status = String(h['grpc-status']);
        message = percentDecode(String(h['grpc-message'] ?? ''));
      };
      const abort = (): void => {
        if (on('no-cancel')) return;
        stream.close(constants.NGHTTP2_CANCEL);
        reject(new Failure('CANCELLED', 'the call was cancelled', 'rpc'));
      };
      signal.addEventListener('abort', abort, { once: true });
      stream.on('response', take);
      stream.on('trailers', take);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err) => reject(unavailable(err)));
      stream.on('close', () => {
        signal.removeEventListener('abort', abort);
        if (status === undefined) {
          reject(unavailable(new Error(`the stream ended without a status (code ${stream.rstCode})`)));
        } else if (status !== '0') {
          reject(new Failure(CODES[Number(status)] ?? 'UNKNOWN', message, 'rpc'));
        } else {
          const body = Buffer.concat(chunks);
          const length = body.length >= 5 ? body.readUInt32BE(1) : 0;
          try {
            resolvePromise(fromBinary(method.output, body.subarray(5, 5 + length)) as MessageShape<M['output']>);
          } catch (err) {
            reject(new Failure('INTERNAL', `unreadable response: ${(err as Error).message}`, 'rpc'));
          }
        }
      });
      stream.end(frame);
    });
  }

  close(): void {
    this.#session?.destroy();
  }
}

// ---------------------------------------------------------------- the tools

interface Param {
  name: string;
  required?: boolean;
  description: string;
  /** A request field of another name. */
  field?: string;
}

interface ToolDef {
  name: string;
  description: string;
  params: Param[];
  method: DescMethod & { input: DescMessage; output: DescMessage };
  /** Request values for omitted parameters. */
  defaults?: Record<string, string>;
}

const FORMAT = 'Language code format: "bcp47" (default) or "native" (the model\'s own codes).';
const MODEL = 'Translation model key; the service default when omitted.';

const TOOLS: ToolDef[] = [
  {
    name: 'translate_text',
    description: 'Translates a text with the translation service.',
    params: [
      { name: 'text', required: true, description: 'Text to translate.' },
      { name: 'target_language', required: true, description: 'Target language code.' },
      { name: 'source_language', description: 'Source language code, or "auto" (default) to detect it.' },
      { name: 'model', description: MODEL },
      { name: 'language_format', description: FORMAT },
      ...(on('extra-parameters') ? [{ name: 'context', description: 'A free-form hint for the translation.' }] : []),
    ],
    method: RPC.translateText,
    defaults: { source_language: 'auto' },
  },
  {
    name: 'detect_language',
    description: 'Detects the language of a text.',
    params: [
      { name: 'text', required: true, description: 'Text whose language to detect.' },
      { name: 'language_format', description: FORMAT },
    ],
    method: RPC.detectLanguage,
  },
  {
    name: 'translate_localization',
    description: 'Translates all strings of a JSON localization file.',
    params: [
      { name: 'json', required: true, description: 'The localization file as JSON text.' },
      { name: 'source_language', required: true, description: 'Explicit BCP-47 code of the source strings.' },
      { name: 'target_language', required: true, description: 'BCP-47 code to translate into.' },
      { name: 'model', description: MODEL },
      { name: 'existing_translation', description: 'JSON text of earlier translations of the same structure.' },
      { name: 'language_format', description: FORMAT },
      ...(on('extra-parameters') ? [{ name: 'context', description: 'JSON text of the same structure with a hint per key.' }] : []),
    ],
    method: RPC.translateLocalization,
  },
  {
    name: 'transcribe_audio',
    description: 'Transcribes the speech of a WAV file on this machine.',
    params: [
      { name: 'file_path', required: true, description: 'Absolute path of the WAV file.', field: 'audio_data' },
      { name: 'language', description: 'BCP-47 hint of the spoken language, or "auto".' },
      { name: 'language_format', description: FORMAT },
      ...(on('extra-parameters') ? [{ name: 'audio_format', description: 'Audio container: empty or "wav".' }] : []),
    ],
    method: RPC.transcribeAudio,
  },
  {
    name: 'get_capabilities',
    description: 'Reports the translation models available and whether speech-to-text is enabled.',
    params: [],
    method: RPC.getCapabilities,
  },
  ...(on('extra-tool')
    ? [
        {
          name: 'synthesize_speech',
          description: 'Synthesizes speech for a text; reports the WAV produced.',
          params: [
            { name: 'text', required: true, description: 'Text to speak.' },
            { name: 'language', required: true, description: 'BCP-47 code of a language with a voice.' },
            { name: 'voice', description: 'Speaker name of a multi-speaker voice.' },
          ],
          method: RPC.synthesizeSpeech,
        },
      ]
    : []),
];

function listing(tool: ToolDef): Tool {
  const properties: Record<string, object> = {};
  for (const p of tool.params) {
    const schema: Record<string, unknown> = { type: 'string' };
    if (!on('bare-schemas')) schema.description = p.description;
    if (p.name === 'language_format' && on('strict-validation')) schema.enum = ['', 'bcp47', 'native'];
    properties[p.name] = schema;
  }
  const inputSchema: Tool['inputSchema'] = { type: 'object', properties, required: tool.params.filter((p) => p.required).map((p) => p.name) };
  if (!on('bare-schemas')) inputSchema.additionalProperties = false;
  const listed: Tool = { name: tool.name, description: tool.description, inputSchema };
  if (on('output-schema')) {
    const names = tool.method.output.fields.map((f) => (on('snake-case') ? f.name : f.jsonName));
    listed.outputSchema = { type: 'object', properties: Object.fromEntries(names.map((n) => [n, {}])) };
  }
  return listed;
}

/** The arguments checked against the tool's parameters: strings only, the required ones present, no other
 * (unless the schemas are open). */
function checkArguments(tool: ToolDef, raw: unknown): Record<string, string> {
  const args = (raw ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof args !== 'object' || Array.isArray(args)) throw new Failure('INVALID_ARGUMENT', `arguments of ${tool.name} must be an object`, 'arguments');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    const known = tool.params.some((p) => p.name === name);
    if (!known) {
      if (!on('bare-schemas')) problems.push(`${name}: not a parameter of ${tool.name}`);
      continue;
    }
    if (typeof value !== 'string') problems.push(`${name}: must be a string, got ${JSON.stringify(value)}`);
    else out[name] = value;
  }
  for (const p of tool.params) if (p.required && args[p.name] === undefined) problems.push(`${p.name}: required`);
  if (problems.length > 0) throw new Failure('INVALID_ARGUMENT', `invalid arguments for ${tool.name}: ${problems.join('; ')}`, 'arguments');
  if (on('strict-validation')) strictChecks(tool, out);
  return out;
}

const BCP47 = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i;

function strictChecks(tool: ToolDef, args: Record<string, string>): void {
  const refuse = (message: string): never => {
    throw new Failure('INVALID_ARGUMENT', message, 'arguments');
  };
  const format = args.language_format ?? '';
  if (!['', 'bcp47', 'native'].includes(format)) refuse(`language_format must be "bcp47" or "native", got "${format}"`);
  if (tool.name === 'translate_localization') {
    for (const name of ['json', 'existing_translation'] as const) {
      if (args[name] === undefined || args[name] === '') continue;
      try {
        JSON.parse(args[name]);
      } catch (err) {
        refuse(`${name} is not valid JSON: ${(err as Error).message}`);
      }
    }
    if (args.source_language?.toLowerCase() === 'auto') refuse('source_language must be an explicit language code; "auto" is not supported');
    if (format !== 'native') {
      for (const name of ['source_language', 'target_language'] as const) {
        if (!BCP47.test(args[name] ?? '')) refuse(`${name} must be a BCP-47 code, got "${args[name]}"`);
      }
    }
  }
}

async function readAudio(path: string): Promise<Uint8Array> {
  const shown = JSON.stringify(path);
  const fail = (code: string, message: string): never => {
    throw new Failure(code, message, 'file');
  };
  if (!isAbsolute(path)) {
    if (on('relative-paths')) path = resolve(path);
    else fail('INVALID_ARGUMENT', `file_path must be an absolute path, got ${shown}`);
  }
  const fromError = (err: unknown): never => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return fail('PERMISSION_DENIED', `cannot read ${shown}: permission denied`);
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail('NOT_FOUND', `no file at ${shown}`);
    return fail('INTERNAL', `cannot read ${shown}: ${(err as Error).message}`);
  };
  const info = await stat(path).catch(fromError);
  if (!info.isFile()) fail('NOT_FOUND', `${shown} is not a file`);
  if (info.size > AUDIO_LIMIT && !on('no-size-check')) fail('RESOURCE_EXHAUSTED', `${shown} has ${info.size} bytes, more than the limit of ${AUDIO_LIMIT} bytes (50 MB)`);
  const bytes = await readFile(path).catch(fromError);
  if (on('strict-validation') && !(bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WAVE')) {
    fail('INVALID_ARGUMENT', `${shown} is not a WAV file (no RIFF/WAVE header)`);
  }
  return bytes;
}

async function request(tool: ToolDef, args: Record<string, string>): Promise<Record<string, unknown>> {
  const init: Record<string, unknown> = {};
  const byName = new Map(tool.method.input.fields.map((f) => [f.name, f.localName]));
  for (const p of tool.params) {
    const value = args[p.name] ?? tool.defaults?.[p.name];
    if (value === undefined) continue;
    const field = byName.get(p.field ?? p.name);
    if (field === undefined) throw new Error(`${tool.name}.${p.name} has no request field`);
    init[field] = p.name === 'file_path' ? await readAudio(value) : value;
  }
  return init;
}

// ---------------------------------------------------------------- results

const mdEscape = (text: string): string => text.replace(/[\\`*_[\]<>#|~]/g, (ch) => `\\${ch}`);

function textResult(tool: string, r: Record<string, unknown>): string {
  const list = (v: unknown): string => ((v as string[]).length > 0 ? (v as string[]).join(', ') : 'none');
  switch (tool) {
    case 'translate_text':
      return [`Translated text: ${r.translatedText}`, `Model used: ${r.modelUsed}`, ...(r.detectedLanguage ? [`Detected source language: ${r.detectedLanguage}`] : [])].join('\n');
    case 'detect_language':
      return `Language: ${r.language}\nProbability: ${Number((r.probability as number).toFixed(4))}`;
    case 'translate_localization':
      return `Strings translated: ${r.stringsTranslated}\nTranslated JSON:\n${r.json}`;
    case 'transcribe_audio': {
      const segments = (r.segments as { text: string; startTime: number; endTime: number }[]).map(
        (s) => `  ${s.startTime.toFixed(2)}-${s.endTime.toFixed(2)} s: ${s.text}`,
      );
      return [`Transcript: ${r.fullText}`, ...(r.detectedLanguage ? [`Detected language: ${r.detectedLanguage}`] : []), 'Segments:', ...segments].join('\n');
    }
    case 'get_capabilities':
      return [
        `Translation models: ${list(r.availableModels)}`,
        `Speech-to-text (STT): ${r.sttAvailable ? 'available' : 'not available'}`,
        `Text-to-speech (TTS): ${r.ttsAvailable ? 'available' : 'not available'}`,
        `Voices: ${list(r.availableVoices)}`,
      ].join('\n');
    default:
      return `Synthesized ${(r.audioData as string).length} characters of base64 WAV audio at ${r.sampleRate} Hz`;
  }
}

function markdownResult(tool: string, r: Record<string, unknown>): string {
  const codes = (v: unknown): string => ((v as string[]).length > 0 ? (v as string[]).map((x) => `\`${x}\``).join(', ') : '_none_');
  switch (tool) {
    case 'translate_text':
      return [
        `**Translation** (model \`${r.modelUsed}\`):`,
        '',
        `> ${mdEscape(r.translatedText as string).replace(/\n/g, '\n> ')}`,
        ...(r.detectedLanguage ? ['', `_Detected source language:_ \`${r.detectedLanguage}\``] : []),
      ].join('\n');
    case 'detect_language':
      return [
        '| Field | Value |',
        '|---|---|',
        `| Language | \`${r.language}\` |`,
        `| Confidence | ${((r.probability as number) * 100).toFixed(2)} % |`,
      ].join('\n');
    case 'translate_localization':
      return `**Strings translated:** ${r.stringsTranslated}\n\n\`\`\`json\n${r.json}\n\`\`\``;
    case 'transcribe_audio': {
      const segments = (r.segments as { text: string; startTime: number; endTime: number }[]).map(
        (s) => `  - ${s.startTime.toFixed(2)} s – ${s.endTime.toFixed(2)} s: ${mdEscape(s.text)}`,
      );
      return [
        '### Transcript',
        '',
        mdEscape(r.fullText as string),
        '',
        ...(r.detectedLanguage ? [`- **Language:** \`${r.detectedLanguage}\``] : []),
        '- **Segments:**',
        ...segments,
      ].join('\n');
    }
    case 'get_capabilities':
      return [
        '## Translation service',
        '',
        `- **Models:** ${codes(r.availableModels)}`,
        `- **STT:** ${r.sttAvailable ? '✅ enabled' : '❌ disabled'}`,
        `- **TTS:** ${r.ttsAvailable ? '✅ enabled' : '❌ disabled'}`,
        `- **Voices:** ${codes(r.availableVoices)}`,
      ].join('\n');
    default:
      return `**Speech synthesized** at ${r.sampleRate} Hz.`;
  }
}

function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).reverse();
  return Object.fromEntries(entries.map(([k, v]) => [k, Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...v].sort() : reorder(v)]));
}

function rounded(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.round(value * 1000) / 1000;
  if (Array.isArray(value)) return value.map(rounded);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
}

function success(tool: ToolDef, response: MessageShape<DescMessage>): CallToolResult {
  const full = toJson(tool.method.output, response, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  if (on('text-results')) return { content: [{ type: 'text', text: textResult(tool.name, full) }] };
  if (on('markdown-results')) return { content: [{ type: 'text', text: markdownResult(tool.name, full) }] };
  let json = toJson(tool.method.output, response, { alwaysEmitImplicit: !on('defaults-omitted'), useProtoFieldName: on('snake-case') }) as Record<string, unknown>;
  if (on('rounded-numbers')) json = rounded(json) as Record<string, unknown>;
  if (on('reordered')) json = reorder(json) as Record<string, unknown>;
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(json) }];
  if (on('summary-item')) content.unshift({ type: 'text', text: `${tool.name} answered; the response follows as JSON.` });
  return { content, structuredContent: json };
}

function failure(failed: Failure): CallToolResult {
  if (on('rpc-errors')) throw new McpError(failed.kind === 'arguments' ? ErrorCode.InvalidParams : ErrorCode.InternalError, `${failed.code}: ${failed.message}`);
  return { content: [{ type: 'text', text: wording(failed) }], isError: true };
}

// ---------------------------------------------------------------- the server

function homeConfig(): Record<string, unknown> {
  const home = process.env.HOME;
  if (!home) return {};
  try {
    if (!statSync(home).isDirectory()) throw new Error('not a folder');
  } catch (err) {
    process.stderr.write(`variant-tools: HOME=${home} is not a usable folder: ${(err as Error).message}\n`);
    process.exit(1);
  }
  try {
    return JSON.parse(readFileSync(join(home, '.config', 'translate-tools', 'config.json'), 'utf8')) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    process.stderr.write(`variant-tools: cannot read the configuration in ${home}: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

const config = on('home-config') ? homeConfig() : {};
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const service = new Service();
const info = on('own-info') ? { name: 'variant-translate-tools', version: '9.9.9' } : { name: 'translate-tools', version };
const server = new Server(info, { capabilities: on('logging-capability') ? { tools: {}, logging: {} } : { tools: {} } });
const tools = new Map(TOOLS.map((t) => [t.name, t]));

server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map(listing) }));
server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
  const { name, arguments: args } = call.params;
  log(`tools/call ${name}`);
  if (on('slow')) await sleep(400);
  const tool = tools.get(name);
  if (!tool) {
    if (on('error-wording')) return { content: [{ type: 'text', text: `There is no tool named "${name}".` }], isError: true };
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  }
  try {
    const init = await request(tool, checkArguments(tool, args));
    const response = await service.call(tool.method, create(tool.method.input, init), extra.signal);
    return success(tool, response);
  } catch (err) {
    if (err instanceof Failure) return failure(err);
    throw err;
  }
});

if (on('stderr-logs')) {
  process.stderr.write(`variant-tools ${version} starting (variants: ${[...variants].join(', ') || 'none'})\n`);
  for (const [key, value] of Object.entries(config)) process.stderr.write(`  config ${key} = ${JSON.stringify(value)}\n`);
}
if (on('no-sigterm')) process.on('SIGTERM', () => log('SIGTERM ignored: the server stops when its input closes'));
else process.once('SIGTERM', () => process.exit(0));
process.stdin.once('end', () => {
  service.close();
  process.exit(0);
});
if (on('stdout-banner')) process.stdout.write(`variant-tools ${version} ready on stdio\n`);
if (on('slow')) await sleep(1000);
await server.connect(new StdioServerTransport());
log(`serving on stdio; translation service at ${service.shown}`);
