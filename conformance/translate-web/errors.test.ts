// How failures reach the browser (informational: the document shows none of it; the reference's choices):
// each gRPC status code on its HTTP status, the JSON error body with the status message unchanged, 504 when
// a deadline passes, 503 while the service is unreachable and recovery once it is back, and the call
// cancelled when the browser goes away. The service is a stub answering as each case needs.
import { status } from '@grpc/grpc-js';
import { check } from '../harness/check.ts';
import { freePorts, releasePorts } from '../harness/free-ports.ts';
import { codeName } from '../harness/grpc-client.ts';
import { GrpcStub, type StubHandler } from '../harness/grpc-stub.ts';
import { runningMsSince } from '../harness/stalls.ts';
import { carries, HANG, markedHandler, requestFields } from './exchanges.ts';
import { callRoute, errorCode, GATEWAY, gateway, route, routeRequest, sharedGateway, sharedStub, shown, succeeded } from './target.ts';
import { within } from '../harness/within.ts';

/** The reference's table (catalog translate-web/errors/status-mapping). */
const HTTP_STATUS: Record<number, number> = {
  [status.CANCELLED]: 499,
  [status.UNKNOWN]: 500,
  [status.INVALID_ARGUMENT]: 400,
  [status.DEADLINE_EXCEEDED]: 504,
  [status.NOT_FOUND]: 404,
  [status.ALREADY_EXISTS]: 409,
  [status.PERMISSION_DENIED]: 403,
  [status.RESOURCE_EXHAUSTED]: 413,
  [status.FAILED_PRECONDITION]: 400,
  [status.ABORTED]: 409,
  [status.OUT_OF_RANGE]: 400,
  [status.UNIMPLEMENTED]: 501,
  [status.INTERNAL]: 500,
  [status.UNAVAILABLE]: 503,
  [status.DATA_LOSS]: 500,
  [status.UNAUTHENTICATED]: 401,
};

/** A status message with what a careless formatter would mangle: quotes, a colon, non-ASCII, a newline. */
const MESSAGE = 'model "hidden" is not allowed: ¿por qué?\nsee AllowedModels';

/** A request whose text is `code=<n> …` is refused with that code and MESSAGE. */
const refusing: StubHandler = (call) => {
  const code = /code=(\d+) /.exec(Buffer.from(call.message).toString('utf8'))?.[1];
  return code === undefined ? markedHandler(call) : { code: Number(code), message: MESSAGE };
};

const detect = route('detect');

check('translate-web/errors/status-mapping/every-grpc-code-on-its-http-status', GATEWAY, async (t, c) => {
  const s = await sharedStub('errors', refusing);
  const g = await sharedGateway(c, 'errors', { grpcUrl: s.address });
  const answers = await Promise.all(Object.keys(HTTP_STATUS).map(async (code) => [Number(code), await callRoute(c, g.http, detect, { text: `code=${code} ${c.id}` })] as const));
  const got = Object.fromEntries(answers.map(([code, res]) => [codeName(code), `${res.status} ${errorCode(res)}`]));
  const want = Object.fromEntries(answers.map(([code]) => [codeName(code), `${HTTP_STATUS[code]} ${codeName(code)}`]));
  t.deepEqual(got, want);
});

check('translate-web/errors/body/json-error-with-code-and-the-status-message', GATEWAY, async (t, c) => {
  const s = await sharedStub('errors', refusing);
  const g = await sharedGateway(c, 'errors', { grpcUrl: s.address });
  const res = await callRoute(c, g.http, detect, { text: `code=${status.PERMISSION_DENIED} ${c.id}` });
  t.regex(String(res.headers['content-type']), /^application\/json/);
  t.deepEqual(res.json(), { error: { code: 'PERMISSION_DENIED', message: MESSAGE } });
});

check('translate-web/errors/deadline-exceeded/504-when-the-deadline-passes', GATEWAY, async (t, c) => {
  const s = await sharedStub('errors', refusing);
  const g = await gateway(c, { grpcUrl: s.address, env: { TRANSLATE_TIMEOUT_MS: '300' } });
  const started = Date.now();
  const res = await callRoute(c, g.http, route('translate'), requestFields(route('translate'), `${HANG} ${c.id}`));
  const elapsed = runningMsSince(started);
  t.is(res.status, 504, shown(res));
  t.is(errorCode(res), 'DEADLINE_EXCEEDED', shown(res));
  t.true(elapsed < 300 + 2000, `answered after ${elapsed} ms (${Date.now() - started} ms, this worker's stalls included)`);
});

check('translate-web/errors/service-unavailable/503-then-recovers-when-the-service-is-back', GATEWAY, async (t, c) => {
  const [port] = await freePorts(1);
  c.defer(() => releasePorts([port!]));
  const g = await gateway(c, { grpcUrl: `127.0.0.1:${port}` });
  const down = await callRoute(c, g.http, detect, { text: `down ${c.id}` });
  t.is(down.status, 503, shown(down));
  t.is(errorCode(down), 'UNAVAILABLE', shown(down));
  const service = await new GrpcStub(markedHandler).listen(port);
  c.defer(() => service.close());
  c.note(`# a gRPC stub now listens at 127.0.0.1:${port}`);
  // The gateway may wait out a reconnection backoff: a few seconds are allowed.
  let up = await callRoute(c, g.http, detect, { text: `up ${c.id}` });
  for (const until = Date.now() + 10_000; !succeeded(up) && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 250));
    up = await callRoute(c, g.http, detect, { text: `up ${c.id}` });
  }
  t.true(succeeded(up), `10 s after the service came back: ${shown(up)}`);
});

check('translate-web/errors/client-disconnect/cancels-the-call', GATEWAY, async (t, c) => {
  const s = await sharedStub('errors', refusing);
  const g = await sharedGateway(c, 'errors', { grpcUrl: s.address });
  const marker = `${HANG} ${c.id}`;
  const request = g.http.abortable(await routeRequest(c, detect, { text: marker }));
  const call = await s.waitForCall((x) => carries(x, marker));
  // The browser goes away before any answer: its connection closes.
  request.abort();
  const code = await within(call.closed, 5000, 'still open 5 s later');
  t.not(code, 'still open 5 s later', 'the gRPC call was not cancelled');
});
