// A deliberately faulty tool server, for proving that the translate-tools suite can fail. It starts the
// reference tool server (from source, under tsx) as its child with the same environment and working
// directory, and relays newline-delimited JSON-RPC between its own stdin/stdout and the child's; standard
// error passes through. Each fault named in FAULTS (comma-separated, see faulty-tools-faults.ts) alters a
// listing, a call's arguments or result, the child's environment, or where the messages go. It exits when
// its standard input ends, as the reference does (the child sees its own stdin end and exits first).
//
//   FAULTS=a,b node --import <root>/node_modules/tsx/dist/loader.mjs tools/test/faulty/faulty-tools.ts
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ToolsFault } from './faulty-tools-faults.ts';

// Found from this file, not from the harness: the front should start in a blink and import nothing heavy.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSX = resolve(ROOT, 'node_modules/tsx/dist/loader.mjs');
const REFERENCE = resolve(ROOT, 'reference/translate-tools/main.ts');

const faults = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean) as ToolsFault[]);
const on = (f: ToolsFault): boolean => faults.has(f);
/** The default highWaterMark of fs.createReadStream. */
const CHUNK_BYTES = 64 * 1024;

type Json = Record<string, unknown>;
interface Schema {
  type?: string;
  properties?: Record<string, Json>;
  required?: string[];
  additionalProperties?: boolean;
}
interface Tool {
  name: string;
  description?: string;
  inputSchema: Schema;
}

// ---------------------------------------------------------------- the child's environment

/** Faults that cannot be seen on the wire: which address the reference is told to call. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.FAULTS;
  if (on('grpc-url-ignored')) delete env.TRANSLATE_GRPC_URL;
  if (on('default-port-50051') && !env.TRANSLATE_GRPC_URL?.trim()) env.TRANSLATE_GRPC_URL = 'localhost:50051';
  return env;
}

// ---------------------------------------------------------------- the listing

const STRING = (description: string): Json => ({ type: 'string', description });

function alterTool(tool: Tool): void {
  const schema = tool.inputSchema;
  schema.properties ??= {};
  const props = schema.properties;
  const drop = (name: string): void => {
    schema.required = (schema.required ?? []).filter((n) => n !== name);
  };
  switch (tool.name) {
    case 'translate_text':
      if (on('text-format-unlisted')) delete props.language_format;
      if (on('text-target-optional')) drop('target_language');
      break;
    case 'detect_language':
      if (on('detect-format-required')) schema.required = [...(schema.required ?? []), 'language_format'];
      break;
    case 'translate_localization':
      if (on('localization-context-listed')) props.context = STRING('Notes for the translator, as JSON text.');
      if (on('localization-source-optional')) drop('source_language');
      if (on('localization-existing-object') && props.existing_translation) props.existing_translation = { ...props.existing_translation, type: 'object' };
      break;
    case 'transcribe_audio':
      if (on('transcribe-path-renamed') && props.file_path) {
        props.path = props.file_path;
        delete props.file_path;
        schema.required = (schema.required ?? []).map((n) => (n === 'file_path' ? 'path' : n));
      }
      break;
    case 'get_capabilities':
      if (on('capabilities-param')) {
        props.model = STRING('Only report this model.');
        schema.required = [...(schema.required ?? []), 'model'];
      }
      break;
  }
}

function alterListing(result: { tools?: Tool[] }): void {
  for (const tool of result.tools ?? []) alterTool(tool);
  if (on('detect-unlisted')) result.tools = result.tools?.filter((tool) => tool.name !== 'detect_language');
  if (on('extra-tool')) {
    result.tools?.push({
      name: 'synthesize_speech',
      description: 'Speak a text as a WAV file.',
      inputSchema: { type: 'object', properties: { text: STRING('The text to speak.') }, required: ['text'], additionalProperties: false },
    });
  }
}

// ---------------------------------------------------------------- tool calls

/** The tools api-key-required wants a key for: the two that only read the service's state stay free, as
 * a server billing per translated word or second of audio would have it. */
const PAID_TOOLS = new Set(['translate_text', 'translate_localization', 'transcribe_audio']);

/** Where the truncated copies of audio-first-chunk go (removed at exit). */
let scratch: string | undefined;
let copies = 0;

/** A copy of the file's first 64 KiB (what one 'data' event of a read stream holds), or the path itself for a
 * file that fits, or one the reference should report as missing or unreadable on its own. */
function firstChunk(path: string): string {
  try {
    if (!isAbsolute(path) || !statSync(path).isFile() || statSync(path).size <= CHUNK_BYTES) return path;
    const bytes = Buffer.alloc(CHUNK_BYTES);
    const fd = openSync(path, 'r');
    readSync(fd, bytes, 0, CHUNK_BYTES, 0);
    closeSync(fd);
    scratch ??= mkdtempSync(join(tmpdir(), 'faulty-tools-'));
    const copy = join(scratch, `${++copies}.wav`);
    writeFileSync(copy, bytes);
    return copy;
  } catch {
    return path;
  }
}
process.on('exit', () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Rewrites a call's arguments in place, judged on what the caller sent. */
function alterArguments(tool: string, args: Json): void {
  const omitted = (name: string): boolean => args[name] === undefined;
  switch (tool) {
    case 'translate_text':
      if (on('model-default-apertium') && omitted('model')) args.model = 'apertium';
      else if (on('model-not-copied')) delete args.model;
      if (on('source-default-en') && omitted('source_language')) args.source_language = 'en';
      if (on('text-format-default-native') && omitted('language_format')) args.language_format = 'native';
      break;
    case 'detect_language':
      if (on('detect-format-default-native') && omitted('language_format')) args.language_format = 'native';
      break;
    case 'translate_localization':
      if (on('localization-auto-guessed') && args.source_language === 'auto') args.source_language = 'en';
      break;
    case 'transcribe_audio':
      if (on('audio-first-chunk') && typeof args.file_path === 'string') args.file_path = firstChunk(args.file_path);
      if (on('relative-path-accepted') && typeof args.file_path === 'string' && !isAbsolute(args.file_path)) args.file_path = resolve(args.file_path);
      break;
  }
}

/** Applies `change` to the response object of a successful result: its structuredContent and its JSON text. */
function alterResponse(result: { structuredContent?: Json; content?: { type: string; text?: string }[]; isError?: boolean }, change: (o: Json) => void): void {
  if (result.isError) return;
  if (result.structuredContent) change(result.structuredContent);
  for (const item of result.content ?? []) {
    if (item.type !== 'text' || item.text === undefined) continue;
    const parsed = JSON.parse(item.text) as Json;
    change(parsed);
    item.text = JSON.stringify(parsed);
  }
}

function alterResult(tool: string, result: Json): void {
  if (tool === 'detect_language' && on('probability-percent')) {
    alterResponse(result, (o) => {
      o.probability = Number(o.probability ?? 0) * 100;
    });
  }
  if (tool === 'get_capabilities' && on('stt-from-tts')) {
    alterResponse(result, (o) => {
      o.sttAvailable = o.ttsAvailable ?? false;
    });
  }
}

// ---------------------------------------------------------------- the relay

const child = spawn(process.execPath, ['--import', TSX, REFERENCE, ...process.argv.slice(2)], { env: childEnv(), stdio: ['pipe', 'pipe', 'inherit'] });
/** What each pending request asked, by id: the method, and the tool for tools/call. */
const pending = new Map<unknown, { method: string; tool?: string }>();
const out = on('answers-on-stderr') ? process.stderr : process.stdout;

function parse(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `path` is absolute and outside the home folder (home-files-only refuses it). */
function outsideHome(path: unknown): boolean {
  const home = process.env.HOME;
  if (typeof path !== 'string' || !isAbsolute(path) || !home) return false;
  const inside = relative(resolve(home), resolve(path));
  return inside.startsWith('..') || isAbsolute(inside);
}

/** A tool error answered here, in the reference's form. */
function toolError(id: unknown, text: string): void {
  out.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } })}\n`);
}

/** A client message: altered, answered here (the API key, a file outside home), or relayed as it came. */
function fromClient(line: string): void {
  const message = parse(line);
  const params = message?.params as { name?: string; arguments?: Json } | undefined;
  if (!message || typeof message.method !== 'string' || message.id === undefined) {
    child.stdin.write(`${line}\n`);
    return;
  }
  const tool = message.method === 'tools/call' ? params?.name : undefined;
  if (tool !== undefined && PAID_TOOLS.has(tool) && on('api-key-required') && !process.env.TRANSLATE_API_KEY) {
    toolError(message.id, 'UNAUTHENTICATED: set TRANSLATE_API_KEY to your API key');
    return;
  }
  if (tool === 'transcribe_audio' && on('home-files-only') && outsideHome(params?.arguments?.file_path)) {
    toolError(message.id, `PERMISSION_DENIED: ${String(params?.arguments?.file_path)} is outside ${process.env.HOME}; only files under it are read`);
    return;
  }
  if (tool !== undefined && params) {
    params.arguments ??= {};
    alterArguments(tool, params.arguments);
  }
  pending.set(message.id, { method: message.method, ...(tool === undefined ? {} : { tool }) });
  child.stdin.write(`${JSON.stringify(message)}\n`);
}

/** A child message: a response to a request of the client's is altered by what it answers. */
function fromChild(line: string): void {
  const message = parse(line);
  const asked = message && 'id' in message && !('method' in message) ? pending.get(message.id) : undefined;
  if (asked && message) {
    pending.delete(message.id);
    const result = message.result as Json | undefined;
    if (result && asked.method === 'tools/list') alterListing(result as { tools?: Tool[] });
    if (result && asked.tool !== undefined) alterResult(asked.tool, result);
    out.write(`${JSON.stringify(message)}\n`);
    return;
  }
  out.write(`${line}\n`);
}

if (on('stdout-banner')) process.stdout.write('translate-tools (faulty) ready\n');
child.stdin.on('error', () => {}); // the child may be gone while the client still writes
createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', fromChild);
createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })
  .on('line', fromClient)
  .on('close', () => child.stdin.end());
child.on('close', (code) => {
  process.exitCode = code ?? 1;
  process.stdin.destroy();
});
// The client may stop the front alone (the process, not its group): pass the signal on and exit with the child.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
