// The translate-web suite's view of its target: an HTTP gateway (a `cmd:` command the cases start with
// PORT and TRANSLATE_GRPC_URL) in front of a translation service the suite controls — a recording gRPC stub
// that answers as a case needs (at once, late, with a status, never), or the reference translation service
// (the target's `backend`) where real answers matter. The routes and their deadlines are the suite's own
// table of the document's "Web gateway" section.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { backendServices } from '../harness/backend-service.ts';
import type { CaseContext } from '../harness/case-context.ts';
import type { CaseOptions } from '../harness/check.ts';
import { reportStart } from '../harness/events.ts';
import { GrpcStub, type RecordedCall, type StubHandler } from '../harness/grpc-stub.ts';
import type { HttpClient, HttpRequest, HttpResponse } from '../harness/http-client.ts';
import { launch, type Launched, type LaunchSpec } from '../harness/launch.ts';
import { perFile } from '../harness/per-file.ts';
import { runEnv, type TargetSpec } from '../harness/run-env.ts';
import type { TranslateDescription } from '../translate/target.ts';
import { encodeRequest, type RpcFields, routeBody } from './body-mapping.ts';

export const target: TargetSpec = runEnv.targets['translate-web']!;

/** Every case starts the gateway itself: a `cmd:` target. */
export const GATEWAY: CaseOptions = { needs: ['launch'] };

/** The facts of the backend's description (conformance/translate/reference-target/description.json). */
export const facts = (target?.backend?.description ?? {}) as Partial<TranslateDescription>;
export const pair = facts.pair ?? { model: '', source: 'en', target: 'es', text: 'Good morning, friends' };

/** The reference translation service of this test file, with a client for the case. */
export const backend = backendServices(target, 'translate-web');

// ---------------------------------------------------------------- the documented routes

export const TIMEOUT_VARIABLES = ['TRANSLATE_TIMEOUT_MS', 'LOCALIZE_TIMEOUT_MS', 'TRANSCRIBE_TIMEOUT_MS'] as const;
export type TimeoutVariable = (typeof TIMEOUT_VARIABLES)[number];
export const FIXED_DEADLINE_MS = 30_000;

const M = TranslateService.method;
export type Rpc = (typeof M)[keyof typeof M];

export interface Route {
  /** Short name, used in case IDs. */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  rpc: Rpc;
  /** A fixed deadline in ms, or the variable holding it. */
  deadline: number | TimeoutVariable;
}

export const ROUTES: readonly Route[] = [
  { name: 'capabilities', method: 'GET', path: '/api/capabilities', rpc: M.getCapabilities, deadline: FIXED_DEADLINE_MS },
  { name: 'translate', method: 'POST', path: '/api/translate', rpc: M.translateText, deadline: 'TRANSLATE_TIMEOUT_MS' },
  { name: 'detect', method: 'POST', path: '/api/detect', rpc: M.detectLanguage, deadline: FIXED_DEADLINE_MS },
  { name: 'localize', method: 'POST', path: '/api/localize', rpc: M.translateLocalization, deadline: 'LOCALIZE_TIMEOUT_MS' },
  { name: 'transcribe', method: 'POST', path: '/api/transcribe', rpc: M.transcribeAudio, deadline: 'TRANSCRIBE_TIMEOUT_MS' },
  { name: 'translate-audio', method: 'POST', path: '/api/translate-audio', rpc: M.translateAudio, deadline: 'TRANSCRIBE_TIMEOUT_MS' },
  { name: 'synthesize', method: 'POST', path: '/api/synthesize', rpc: M.synthesizeSpeech, deadline: FIXED_DEADLINE_MS },
];

export function route(name: string): Route {
  const found = ROUTES.find((r) => r.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
}

/** The gRPC path of a route's RPC, as a stub records it. */
export const rpcPath = (rpc: Rpc): string => `/${rpc.parent.typeName}/${rpc.name}`;

/** The calls of TranslateService (not a health check or the like) that reached `stub` since `since`. */
export const serviceCalls = (stub: GrpcStub, since: number): RecordedCall[] =>
  stub.calls.filter((call) => call.at >= since && call.path.startsWith(`/${TranslateService.typeName}/`));

/** A route's request carrying the RPC `fields`, in the target's body design (its description's `bodies`;
 * default: the protobuf JSON mapping). A malformed description leaves the case unable to judge. */
export async function callRoute(c: CaseContext, http: HttpClient, r: Route, fields: RpcFields = {}, timeoutMs = 15_000): Promise<HttpResponse> {
  return http.request({ ...(await routeRequest(c, r, fields)), timeoutMs });
}

/** The HTTP request of route `r` carrying `fields` in the target's body design. */
export function routeRequest(c: CaseContext, r: Route, fields: RpcFields): Promise<HttpRequest> {
  return c.need(`the request of ${r.method} ${r.path} in the target's body design`, () =>
    encodeRequest(r, routeBody(target?.description?.bodies, r.name, ROUTES.map((x) => x.name)), fields),
  );
}

/** Sends `body` as JSON to a POST route as it is (the reference's design: the bodies cases). */
export function postJson(http: HttpClient, r: Route, body: unknown, timeoutMs = 15_000): Promise<HttpResponse> {
  if (r.method === 'GET') return http.request({ path: r.path, timeoutMs });
  return http.request({ method: 'POST', path: r.path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), timeoutMs });
}

/** A 2xx status: the document names no success status. */
export const succeeded = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300;

// ---------------------------------------------------------------- stubs in place of the service

/** A recording stub of the case's own, closed when the case ends. Default: every field at its default. */
export async function stub(c: CaseContext, handler?: StubHandler, port = 0): Promise<GrpcStub> {
  const s = await new GrpcStub(handler).listen(port);
  c.defer(() => s.close());
  c.note(`# a recording gRPC stub at ${s.address} stands in for the translation service`);
  return s;
}

const sharedStubs = perFile<GrpcStub>((s) => s.close());

/** A recording stub of the test file, started once under `name` (cases pick their calls out by a value of
 * their own in the request). */
export function sharedStub(name: string, handler: StubHandler): Promise<GrpcStub> {
  return sharedStubs(name, () => new GrpcStub(handler).listen());
}

// ---------------------------------------------------------------- the gateway

export interface GatewayOptions {
  /** TRANSLATE_GRPC_URL; `null` leaves it unset. */
  grpcUrl: string | null;
  /** More environment (undefined removes a variable; every timeout variable is unset unless given here). */
  env?: Record<string, string | undefined>;
  /** Ports the gateway must listen on to count as started (default: `{port}`, also in PORT). */
  listen?: number[];
}

export interface Gateway {
  url: string;
  http: HttpClient;
  launched: Launched;
}

function spec(options: GatewayOptions): LaunchSpec {
  const unset = Object.fromEntries(TIMEOUT_VARIABLES.map((name) => [name, undefined]));
  return {
    env: { ...unset, TRANSLATE_GRPC_URL: options.grpcUrl ?? undefined, ...options.env },
    ...(options.listen ? { listen: options.listen } : {}),
  };
}

const portOf = (launched: Launched, options: GatewayOptions): number => options.listen?.[0] ?? launched.port;

/** A gateway of the case's own, stopped when the case ends. */
export async function gateway(c: CaseContext, options: GatewayOptions): Promise<Gateway> {
  const launched = await c.launch(spec(options));
  const url = `http://127.0.0.1:${portOf(launched, options)}`;
  return { url, http: c.http(url), launched };
}

const sharedGateways = perFile<Launched>((launched) => launched.stop());

/** A gateway of the test file, started once under `name` (for cases that only make calls). */
export async function sharedGateway(c: CaseContext, name: string, options: GatewayOptions): Promise<Gateway> {
  const launched = await reportStart(c.id, sharedGateways(name, () => launch(target.command!, target.env ?? {}, spec(options))));
  c.note(`# gateway shared by the test file: ${launched.commandLine} (TRANSLATE_GRPC_URL=${options.grpcUrl ?? ''})`);
  const url = `http://127.0.0.1:${portOf(launched, options)}`;
  return { url, http: c.http(url), launched };
}

// ---------------------------------------------------------------- answers

/** The error body's gRPC code name, when the gateway sent the reference's error body. */
export function errorCode(res: HttpResponse): string | undefined {
  try {
    return res.json<{ error?: { code?: unknown } }>().error?.code as string | undefined;
  } catch {
    return undefined;
  }
}

/** A response for a failure message: status and the start of the body. */
export const shown = (res: HttpResponse): string => `${res.status} ${res.text.slice(0, 300)}`;
