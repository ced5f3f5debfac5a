// Who may call the gateway and how often (informational: the document states neither; the reference's
// choices): no credential is asked for and no CORS header is sent, so only the gateway's own page can call
// it from a browser; no rate limit, and requests are forwarded concurrently.
import { check } from '../harness/check.ts';
import { later, type StubHandler } from '../harness/grpc-stub.ts';
import { cannedAnswer, carries, markedHandler } from './exchanges.ts';
import { callRoute, GATEWAY, route, routeRequest, sharedGateway, sharedStub, shown, succeeded } from './target.ts';

const detect = route('detect');
const HELD_MS = 600;
/** Requests carrying it are answered HELD_MS later. */
const HELD = 'held-for-a-while';
const handler: StubHandler = (call) => (carries(call, HELD) ? later(HELD_MS, cannedAnswer(call)) : markedHandler(call));

check('translate-web/auth/none/no-credential-and-no-cors-headers', GATEWAY, async (t, c) => {
  const s = await sharedStub('access', handler);
  const g = await sharedGateway(c, 'access', { grpcUrl: s.address });
  const origin = { origin: 'http://elsewhere.example' };
  const request = await routeRequest(c, detect, { text: `no key ${c.id}` });
  const res = await g.http.request({ ...request, headers: { ...request.headers, ...origin } });
  t.true(succeeded(res), shown(res));
  const preflight = await g.http.request({ method: 'OPTIONS', path: detect.path, headers: { ...origin, 'access-control-request-method': 'POST' } });
  for (const [label, answer] of [
    ['POST', res],
    ['OPTIONS', preflight],
  ] as const) {
    t.deepEqual(
      Object.keys(answer.headers).filter((h) => h.startsWith('access-control-')),
      [],
      `${label}: CORS headers`,
    );
  }
});

check('translate-web/limits/rate/forty-requests-at-once-all-forwarded-together', GATEWAY, async (t, c) => {
  const s = await sharedStub('access', handler);
  const g = await sharedGateway(c, 'access', { grpcUrl: s.address });
  const marker = `${HELD} ${c.id}`;
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => callRoute(c, g.http, detect, { text: `${marker} #${i}` })));
  t.deepEqual(
    answers.filter((res) => !succeeded(res)).map((res) => res.status),
    [],
    'statuses other than 2xx',
  );
  const arrivals = s.calls.filter((call) => carries(call, marker)).map((call) => call.at);
  t.is(arrivals.length, 40, 'calls at the service');
  // Each call is held HELD_MS: forwarded one at a time they would arrive at least that far apart.
  t.true(Math.max(...arrivals) - Math.min(...arrivals) < HELD_MS, `calls arrived over ${Math.max(...arrivals) - Math.min(...arrivals)} ms`);
});
