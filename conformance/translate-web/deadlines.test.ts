// The deadline of each route's gRPC call, observed at a stub the suite controls. A deadline travels with
// the call as the `grpc-timeout` header (the gRPC wire form of a deadline), so the stub reads what the gateway
// set: 30 s for capabilities, detect and synthesize, whatever the variables say; the variable's value for
// translate, localize, transcribe and translate-audio (each variable set to a different value, so a route
// reading the wrong one shows); nothing when the variable is unset. A stub that never answers shows the
// deadline enforced: the gateway answers with a failure once it passes, and the call is ended. A stub that
// answers late shows that an unset variable means no deadline.
import type { ExecutionContext } from 'ava';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { type GrpcStub, type RecordedCall, sentTimeoutMs } from '../harness/grpc-stub.ts';
import { carries, HANG, markedHandler, requestBody, SLOW, SLOW_MS } from './exchanges.ts';
import { callRoute, FIXED_DEADLINE_MS, GATEWAY, type Gateway, ROUTES, type Route, route, rpcPath, sharedGateway, sharedStub, shown, type TimeoutVariable } from './target.ts';

/** Distinct values, far enough apart that a route reading another route's variable shows. */
const VALUES: Record<TimeoutVariable, number> = { TRANSLATE_TIMEOUT_MS: 1_000, LOCALIZE_TIMEOUT_MS: 2_200, TRANSCRIBE_TIMEOUT_MS: 3_400 };
/** How much of a deadline may be spent in the gateway before the call leaves (a loaded 2-core machine). */
const SPENT_MS = 1_000;
/** How late after its deadline a failure may still arrive. */
const LATE_MS = 3_000;

const warmed = new Map<string, Promise<unknown>>();

/** A gateway of the file, its channel to the stub connected: a first call may spend a short deadline
 * connecting (grpc-js connects lazily), which is not what the cases measure. */
async function warm(c: CaseContext, name: string, s: GrpcStub, env: Record<string, string> = {}): Promise<Gateway> {
  const g = await sharedGateway(c, name, { grpcUrl: s.address, env });
  // Not GetCapabilities: the capabilities case counts every call of it.
  if (!warmed.has(name)) warmed.set(name, callRoute(g.http, route('detect'), { text: `warm-up ${name}` }));
  await warmed.get(name);
  return g;
}

async function gateways(c: CaseContext): Promise<{ s: GrpcStub; set: Gateway; unset: Gateway }> {
  const s = await sharedStub('deadlines', markedHandler);
  const [set, unset] = await Promise.all([
    warm(c, 'variables-set', s, Object.fromEntries(Object.entries(VALUES).map(([k, v]) => [k, String(v)]))),
    warm(c, 'variables-unset', s),
  ]);
  return { s, set, unset };
}

/** The deadline the call carrying `marker` was sent with (ms; undefined: none). */
async function sentDeadline(s: GrpcStub, r: Route, marker: string): Promise<{ call: RecordedCall; ms: number | undefined }> {
  const call = await s.waitForCall((x) => x.path === rpcPath(r.rpc) && carries(x, marker));
  return { call, ms: sentTimeoutMs(call) };
}

const within = (ms: number | undefined, expected: number): boolean => ms !== undefined && ms <= expected && ms > expected - SPENT_MS;

// ---------------------------------------------------------------- fixed 30 s

for (const r of ROUTES.filter((x) => typeof x.deadline === 'number')) {
  check(`translate-web/deadlines/${r.name}-30s/grpc-timeout-30s-with-and-without-the-variables`, GATEWAY, async (t, c) => {
    const { s, set, unset } = await gateways(c);
    const markers = [`variables set ${c.id}`, `variables unset ${c.id}`];
    const answers = await Promise.all([set, unset].map((g, i) => callRoute(g.http, r, requestBody(r, markers[i]!))));
    for (const res of answers) t.is(res.status, 200, shown(res));
    // GET carries no marker: on this stub only this case calls the route's RPC, once per gateway.
    const calls = s.calls.filter((x) => x.path === rpcPath(r.rpc) && (r.method === 'GET' || markers.some((m) => carries(x, m))));
    const sent = calls.map(sentTimeoutMs);
    t.is(sent.length, 2, 'calls made');
    for (const ms of sent) t.true(within(ms, FIXED_DEADLINE_MS), `grpc-timeout of ${r.rpc.name}: ${ms} ms, expected ${FIXED_DEADLINE_MS} ms`);
  });
}

// ---------------------------------------------------------------- from the variables

async function expiry(t: ExecutionContext, c: CaseContext, r: Route, variable: TimeoutVariable): Promise<void> {
  const { s, set } = await gateways(c);
  const value = VALUES[variable];
  // Answered at once: the deadline it was sent with.
  const marker = `answered ${c.id}`;
  const ok = await callRoute(set.http, r, requestBody(r, marker));
  t.is(ok.status, 200, shown(ok));
  const { ms } = await sentDeadline(s, r, marker);
  t.true(within(ms, value), `grpc-timeout of ${r.rpc.name}: ${ms} ms, expected ${variable}=${value} ms`);
  // Never answered: the gateway gives up when the deadline passes and ends the call.
  const hang = `${HANG} ${c.id}`;
  const started = Date.now();
  const failed = await callRoute(set.http, r, requestBody(r, hang), value + 10_000);
  const elapsed = Date.now() - started;
  t.true(failed.status >= 400, `a call that is never answered: ${shown(failed)}`);
  t.true(elapsed >= value - 20 && elapsed <= value + LATE_MS, `answered after ${elapsed} ms; ${variable}=${value}`);
  const { call } = await sentDeadline(s, r, hang);
  const ended = await Promise.race([call.closed.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), LATE_MS))]);
  t.true(ended, 'the gRPC call was not ended');
}

for (const r of ROUTES.filter((x) => typeof x.deadline === 'string')) {
  const variable = r.deadline as TimeoutVariable;
  check(`translate-web/deadlines/${r.name}-env/deadline-is-the-variable-and-ends-the-call`, GATEWAY, (t, c) => expiry(t, c, r, variable));
}

for (const r of ROUTES.filter((x) => typeof x.deadline === 'string')) {
  check(`translate-web/deadlines/unset-means-none/${r.name}-no-grpc-timeout-and-waits`, GATEWAY, async (t, c) => {
    const { s, unset } = await gateways(c);
    const marker = `${SLOW} ${c.id}`;
    const started = Date.now();
    const res = await callRoute(unset.http, r, requestBody(r, marker));
    const elapsed = Date.now() - started;
    t.is(res.status, 200, `answered ${SLOW_MS} ms late: ${shown(res)}`);
    t.true(elapsed >= SLOW_MS - 20, `answered after ${elapsed} ms, before the service did`);
    const { ms } = await sentDeadline(s, r, marker);
    t.is(ms, undefined, `grpc-timeout of ${r.rpc.name} with its variable unset`);
  });
}
