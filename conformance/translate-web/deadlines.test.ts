// The deadline of each route's gRPC call, observed at a stub the suite controls. A deadline travels with
// the call as the `grpc-timeout` header (the gRPC wire form of a deadline), so the stub reads what the gateway
// set: 30 s for capabilities, detect and synthesize, whatever the variables say; the variable's value for
// translate, localize, transcribe and translate-audio (each variable set to a different value, so a route
// reading the wrong one shows); nothing when the variable is unset. A stub that never answers shows the
// deadline enforced: the call is ended once it passes. A stub that answers late shows that an unset variable
// means no deadline: the gateway waits and answers with the response. What the gateway answers the browser
// when a deadline passes is its own choice (informational: errors/deadline-exceeded). A request the gateway
// makes no call for leaves a case nothing to read: `error`, the route's own case judges that.
import type { ExecutionContext } from 'ava';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { type GrpcStub, type RecordedCall, sentTimeoutMs } from '../harness/grpc-stub.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { stalledMsSince } from '../harness/stalls.ts';
import { carries, HANG, markedHandler, requestFields, SLOW, SLOW_MS, shows } from './exchanges.ts';
import {
  callRoute,
  FIXED_DEADLINE_MS,
  GATEWAY,
  type Gateway,
  ROUTES,
  type Route,
  route,
  rpcPath,
  sharedGateway,
  sharedStub,
  shown,
  succeeded,
  type TimeoutVariable,
} from './target.ts';
import { within as settledWithin } from '../harness/within.ts';

/** Distinct values, far enough apart that a route reading another route's variable shows. */
const VALUES: Record<TimeoutVariable, number> = { TRANSLATE_TIMEOUT_MS: 1_000, LOCALIZE_TIMEOUT_MS: 2_200, TRANSCRIBE_TIMEOUT_MS: 3_400 };
/** How much of a deadline may be spent in the gateway before the call leaves (a loaded 2-core machine). */
const SPENT_MS = 1_000;
/** How late after its deadline the call may still be ended. */
const LATE_MS = 3_000;
/** How long a case waits for the call its request should bring. */
const CALL_WAIT_MS = 10_000;

const warmed = new Map<string, Promise<unknown>>();

/** A gateway of the file, its channel to the stub connected: a first call may spend a short deadline
 * connecting (grpc-js connects lazily), which is not what the cases measure. */
async function warm(c: CaseContext, name: string, s: GrpcStub, env: Record<string, string> = {}): Promise<Gateway> {
  const g = await sharedGateway(c, name, { grpcUrl: s.address, env });
  // Not GetCapabilities: the capabilities case counts every call of it. Its answer does not matter.
  if (!warmed.has(name)) warmed.set(name, callRoute(c, g.http, route('detect'), { text: `warm-up ${name}` }).catch(() => undefined));
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

/** The call the request carrying `marker` brought; none is no deadline to read (the case cannot judge). */
function callFor(c: CaseContext, s: GrpcStub, r: Route, marker: string, answered: () => HttpResponse | undefined): Promise<RecordedCall> {
  return s.waitForCall((x) => x.path === rpcPath(r.rpc) && carries(x, marker), CALL_WAIT_MS).catch(() => {
    const res = answered();
    return c.inconclusive(
      `the gateway made no ${r.rpc.name} call for ${r.method} ${r.path} within ${CALL_WAIT_MS} ms (${res ? `it answered ${shown(res)}` : 'no answer yet'}), so there is no deadline to read; the route's own case judges the call`,
    );
  });
}

const within = (ms: number | undefined, expected: number): boolean => ms !== undefined && ms <= expected && ms > expected - SPENT_MS;

// ---------------------------------------------------------------- fixed 30 s

for (const r of ROUTES.filter((x) => typeof x.deadline === 'number')) {
  check(`translate-web/deadlines/${r.name}-30s/grpc-timeout-30s-with-and-without-the-variables`, GATEWAY, async (t, c) => {
    const { s, set, unset } = await gateways(c);
    const markers = [`variables set ${c.id}`, `variables unset ${c.id}`];
    const sent = Date.now();
    const answers = await Promise.all([set, unset].map((g, i) => callRoute(c, g.http, r, requestFields(r, markers[i]!))));
    // GET carries no marker: on this stub only this case calls the route's RPC, once per gateway, after `sent`.
    const calls = s.calls.filter((x) => x.path === rpcPath(r.rpc) && (r.method === 'GET' ? x.at >= sent : markers.some((m) => carries(x, m))));
    if (calls.length < 2) {
      c.inconclusive(
        `${calls.length} of the 2 ${r.rpc.name} calls the requests should bring reached the service (answers: ${answers.map(shown).join(' | ')}): no deadline to read; the route's own case judges the call`,
      );
    }
    for (const ms of calls.map(sentTimeoutMs)) t.true(within(ms, FIXED_DEADLINE_MS), `grpc-timeout of ${r.rpc.name}: ${ms} ms, expected ${FIXED_DEADLINE_MS} ms`);
  });
}

// ---------------------------------------------------------------- from the variables

async function expiry(t: ExecutionContext, c: CaseContext, r: Route, variable: TimeoutVariable): Promise<void> {
  const { s, set } = await gateways(c);
  const value = VALUES[variable];
  // Answered at once: the deadline it was sent with.
  const marker = `answered ${c.id}`;
  const ok = await callRoute(c, set.http, r, requestFields(r, marker));
  const answered = await callFor(c, s, r, marker, () => ok);
  const ms = sentTimeoutMs(answered);
  t.true(within(ms, value), `grpc-timeout of ${r.rpc.name}: ${ms} ms, expected ${variable}=${value} ms`);
  // Never answered: the gateway gives up when the deadline passes and ends the call.
  const hang = `${HANG} ${c.id}`;
  let failed: HttpResponse | undefined;
  const sentAt = Date.now();
  const request = callRoute(c, set.http, r, requestFields(r, hang), value + 10_000).then(
    (res) => {
      failed = res;
    },
    () => undefined,
  );
  const call = await callFor(c, s, r, hang, () => failed);
  const endedAt = await settledWithin(call.closed.then(() => Date.now()), value + LATE_MS, undefined);
  const after = endedAt === undefined ? undefined : endedAt - call.at;
  // The stub notes a call's arrival when this worker's event loop gets to it: a stall of the loop between the
  // request and the call's arrival (a busy machine: 1.4 s was seen) makes the arrival look later, and the
  // gateway's deadline (from its sending) shorter, by as much.
  const arrivalLate = stalledMsSince(sentAt) - stalledMsSince(call.at);
  t.true(
    after !== undefined && after + arrivalLate >= value - SPENT_MS && after <= value + LATE_MS,
    `the call that is never answered was ended ${after === undefined ? 'not at all' : `${after} ms`} after it arrived${arrivalLate > 0 ? ` (arrival noted up to ${arrivalLate} ms late: this worker stalled)` : ''}; ${variable}=${value}`,
  );
  // The answer itself is the gateway's choice; it is only awaited, so the gateway is not left writing.
  await request;
}

for (const r of ROUTES.filter((x) => typeof x.deadline === 'string')) {
  const variable = r.deadline as TimeoutVariable;
  check(`translate-web/deadlines/${r.name}-env/deadline-is-the-variable-and-ends-the-call`, GATEWAY, (t, c) => expiry(t, c, r, variable));
}

for (const r of ROUTES.filter((x) => typeof x.deadline === 'string')) {
  check(`translate-web/deadlines/unset-means-none/${r.name}-no-grpc-timeout-and-waits`, GATEWAY, async (t, c) => {
    const { s, unset } = await gateways(c);
    const marker = `${SLOW} ${c.id}`;
    const res = await callRoute(c, unset.http, r, requestFields(r, marker));
    const call = await callFor(c, s, r, marker, () => res);
    t.is(sentTimeoutMs(call), undefined, `grpc-timeout of ${r.rpc.name} with its variable unset`);
    t.true(succeeded(res) && shows(res, r.rpc), `the service answered ${SLOW_MS} ms late; the gateway answered ${shown(res)}`);
  });
}
