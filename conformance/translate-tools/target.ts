// The translate-tools suite's view of its target: a stdio tool server (a `cmd:` command the cases start
// through the MCP SDK) and the translation service it calls. The service is the reference translation server
// (the target's `backend`, for a third-party tool server too), started once per test file and variant; the
// cases also call it directly over gRPC, so every tool answer is compared with the RPC's. Where the request
// itself is the point (which RPC, which fields), the tool server calls a recording stub instead
// (harness/grpc-stub.ts).
import { fromBinary, type MessageShape } from '@bufbuild/protobuf';
import { status } from '@grpc/grpc-js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ExecutionContext } from 'ava';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { backendServices } from '../harness/backend-service.ts';
import type { CaseContext } from '../harness/case-context.ts';
import type { CaseOptions } from '../harness/check.ts';
import { reportStart } from '../harness/events.ts';
import { GrpcStub, type StubHandler } from '../harness/grpc-stub.ts';
import type { FileContent } from '../harness/launch.ts';
import { McpSession } from '../harness/mcp-client.ts';
import { perFile } from '../harness/per-file.ts';
import { runEnv, type TargetSpec } from '../harness/run-env.ts';
import type { TranslateDescription } from '../translate/target.ts';
import { type Answer, answerOf, shown } from './tool-answer.ts';

export const target: TargetSpec = runEnv.targets['translate-tools']!;

/** Every case starts the tool server itself: a `cmd:` target. */
export const STDIO: CaseOptions = { needs: ['launch'] };

/** The facts of the backend's description (conformance/translate/reference-target/description.json). */
export const facts = (target?.backend?.description ?? {}) as Partial<TranslateDescription>;

/** A short text and a pair the backend's default model translates (with the pair in its native codes). */
export const pair = facts.pair ?? { model: '', source: 'en', target: 'es', text: 'Good morning, friends' };
export const nativePair = pair.native ?? { source: pair.source, target: pair.target };

// ---------------------------------------------------------------- the backend

export type { Backend } from '../harness/backend-service.ts';

/** The reference translation service of this test file (of a variant named in its description), with a
 * client for the case. */
export const backend = backendServices(target, 'translate-tools');

let sttReported: Promise<boolean> | undefined;

/** Whether the service reports speech-to-text available (asked once per test file). A reference started on a
 * machine without its speech engine reports it off; a call it cannot answer leaves the cases to run. */
export function serviceStt(c: CaseContext): Promise<boolean> {
  sttReported ??= (async () => {
    const out = await (await backend(c)).grpc.call(TranslateService.method.getCapabilities, {});
    return out.response?.sttAvailable ?? true;
  })();
  return sttReported;
}

/** For CaseOptions.applicable: the case needs the service to transcribe. The service is the harness's own
 * (the reference it starts beside the tool server), so one without speech-to-text on this machine is the
 * harness failing to stage the case: `error`, never `not-applicable`. */
export const STT_CASE: CaseOptions = {
  ...STDIO,
  applicable: async (c) => {
    if (!(await serviceStt(c))) {
      c.inconclusive('the translation service the harness runs beside the tool server reports stt_available false: this machine lacks its speech engine (Debian pocketsphinx, pocketsphinx-en-us)');
    }
    return undefined;
  },
};

// ---------------------------------------------------------------- the tool server

export interface ToolServerOptions {
  /** TRANSLATE_GRPC_URL; `null` leaves it unset. Default: the main backend of the test file. */
  grpcUrl?: string | null;
  /** More environment (undefined leaves a variable out). */
  env?: Record<string, string | undefined>;
  /** Files in the server's working directory. */
  files?: Record<string, FileContent>;
}

/** A tool server of the case's own, stopped when the case ends. */
export async function toolServer(c: CaseContext, options: ToolServerOptions = {}): Promise<McpSession> {
  const url = options.grpcUrl === undefined ? (await backend(c)).url : options.grpcUrl;
  const env = { TRANSLATE_GRPC_URL: url ?? undefined, ...options.env };
  const session = await reportStart(c.id, McpSession.start(target.command!, target.env ?? {}, { env, files: options.files ?? {} }, (line) => c.note(line)));
  c.defer(() => session.close());
  return session;
}

const sharedSessions = perFile<McpSession>((session) => session.close());

/** The tool server of this test file, calling its main backend (for cases that only make calls). */
export async function sharedTools(c: CaseContext): Promise<McpSession> {
  const { url } = await backend(c);
  const session = await reportStart(
    c.id,
    sharedSessions('main', () => McpSession.start(target.command!, target.env ?? {}, { env: { TRANSLATE_GRPC_URL: url } }, () => {})),
  );
  c.note(`# tool server shared by the test file: TRANSLATE_GRPC_URL=${url} ${session.commandLine}`);
  return session.withNotes((line) => c.note(line));
}

// ---------------------------------------------------------------- recording stubs in place of the service

/** A request holding this text is never answered by the shared stubs (the call hangs until cancelled). */
export const HANG = 'hang-until-cancelled';
/** A request holding this text is refused by the shared stubs with PERMISSION_DENIED and `REFUSAL`. */
export const REFUSE = 'refuse-this-call';
/** A status message with what a careless formatter would mangle: quotes, a colon, non-ASCII, a newline. */
export const REFUSAL = 'model "hidden" is not allowed: ¿por qué?\nsee AllowedModels';

/** Every field at its default, except for the requests marked HANG or REFUSE. */
const stubHandler: StubHandler = (call) => {
  const message = Buffer.from(call.message);
  if (message.includes(HANG)) return 'hang';
  if (message.includes(REFUSE)) return { code: status.PERMISSION_DENIED, message: REFUSAL };
  return { response: new Uint8Array(0) };
};

/** A recording stub in place of the service, and a tool server of the case's own calling it (for cases that
 * check that no call reaches the service, or that need the stub to answer in a particular way). */
export async function stubbed(c: CaseContext, handler: StubHandler = stubHandler): Promise<{ stub: GrpcStub; tools: McpSession }> {
  const stub = await new GrpcStub(handler).listen();
  c.defer(() => stub.close());
  c.note(`# a recording gRPC stub at ${stub.address} stands in for the service`);
  return { stub, tools: await toolServer(c, { grpcUrl: stub.address }) };
}

const sharedStubs = perFile<{ stub: GrpcStub; session: McpSession }>(async ({ stub, session }) => {
  await session.close();
  await stub.close();
});

/** A recording stub of this test file and a tool server calling it, shared by the cases that only look at
 * the requests their own calls caused (each picks its call out by a value of its own). Cases checking that
 * nothing reaches the service share one under a name of their own (`never-called`). */
export async function sharedStub(c: CaseContext, name = 'main'): Promise<{ stub: GrpcStub; tools: McpSession }> {
  const started = sharedStubs(name, async () => {
    const stub = await new GrpcStub(stubHandler).listen();
    const session = await McpSession.start(target.command!, target.env ?? {}, { env: { TRANSLATE_GRPC_URL: stub.address } }, () => {}).catch(
      async (err: unknown) => {
        await stub.close(); // a listening stub would keep the worker alive
        throw err;
      },
    );
    return { stub, session };
  });
  const { stub, session } = await reportStart(c.id, started);
  c.note(`# a recording gRPC stub at ${stub.address} stands in for the service (shared by the test file); tool server: ${session.commandLine}`);
  return { stub, tools: session.withNotes((line) => c.note(line)) };
}

type Method = (typeof TranslateService.method)[keyof typeof TranslateService.method];

/** How long after the tool answered its request may still reach the stub (it is normally there before). */
const CALL_AFTER_ANSWER_MS = 3_000;

export interface CallThrough {
  /** Whether the clause says the tool must call the service here. When it does, an answer without the call
   * fails the case; when it does not (the case only looks at what a call carries), the case cannot judge. */
  mustCall: boolean;
  /** The clause that does say so, when the call hangs on a step another clause governs (transcribe_audio
   * reads its file first: translate-tools/transcribe-audio/reads-file): named when the case cannot judge. */
  callClause?: string;
}

/**
 * Calls `tool` on a server whose service is `stub`, and returns the request of `method` it caused (the first
 * the stub recorded that `match` accepts, decoded), with the tool's answer. When no such call comes, the
 * message shows the tool's own answer (which may say why it made none).
 */
/** Each recorded message decoded once: every case of a file looks through all the calls of its shared stub,
 * one of which carries 50 MB. (A path names one method, so one decoding per message.) */
const decoded = new WeakMap<Uint8Array, unknown>();

export async function callThrough<M extends Method>(
  t: ExecutionContext,
  c: CaseContext,
  { stub, tools }: { stub: GrpcStub; tools: McpSession },
  call: { tool: string; args: Record<string, unknown> },
  method: M,
  match: (request: MessageShape<M['input']>) => boolean,
  { mustCall, callClause }: CallThrough,
): Promise<{ request: MessageShape<M['input']>; answer: Answer } | undefined> {
  const path = `/${method.parent.typeName}/${method.name}`;
  const decode = (message: Uint8Array): MessageShape<M['input']> | undefined => {
    if (decoded.has(message)) return decoded.get(message) as MessageShape<M['input']> | undefined;
    let request: MessageShape<M['input']> | undefined;
    try {
      request = fromBinary(method.input, message) as MessageShape<M['input']>;
    } catch {
      request = undefined;
    }
    decoded.set(message, request);
    return request;
  };
  const answer = answerOf(await tools.callTool(call.tool, call.args));
  const recorded = await stub
    .waitForCall((x) => {
      const request = x.path === path ? decode(x.message) : undefined;
      return request !== undefined && match(request);
    }, CALL_AFTER_ANSWER_MS)
    .catch(() => undefined);
  if (recorded) return { request: decode(recorded.message)!, answer };
  const what =
    `${call.tool} made no ${method.name} call of this case at the service (a recording stub at ${stub.address}; ` +
    `${stub.calls.length} calls recorded in all); the tool answered: ${shown(answer)}`;
  if (!mustCall) c.inconclusive(`the case cannot see what the call would carry${callClause ? ` (that the tool makes it is ${callClause})` : ''}: ${what}`);
  t.fail(what);
  return undefined;
}

/** A valid WAV (16-bit PCM, mono, 16 kHz) whose samples spell `marker`: bytes no other case sends, that a tool
 * checking its input still takes for a WAV. */
export function markedWav(marker: string): Buffer {
  const samples = Buffer.concat([Buffer.from(marker, 'utf8'), Buffer.alloc(64)]);
  const data = samples.length % 2 === 0 ? samples : Buffer.concat([samples, Buffer.alloc(1)]);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28); // bytes per second
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

let listed: Promise<{ tools: Tool[]; notes: string[] }> | undefined;

/** The tool listing, asked once per test file of a tool server calling a stub (listing needs no service). */
export async function listing(c: CaseContext): Promise<Tool[]> {
  listed ??= (async () => {
    const notes: string[] = [];
    const stub = await new GrpcStub().listen();
    try {
      const session = await McpSession.start(target.command!, target.env ?? {}, { env: { TRANSLATE_GRPC_URL: stub.address } }, (l) => notes.push(l));
      try {
        return { tools: await session.listTools(), notes };
      } finally {
        await session.close();
      }
    } finally {
      await stub.close();
    }
  })();
  const { tools, notes } = await reportStart(c.id, listed);
  for (const line of notes) c.note(line);
  return tools;
}
