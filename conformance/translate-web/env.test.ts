// The gateway's environment: HTTP on PORT, else 4000 (any HTTP answer there shows it: what it answers is the
// routes' business); its calls go to TRANSLATE_GRPC_URL, else localhost:5100 (a stub listening there shows
// it, whatever the gateway then answers; the cases on those fixed ports are not-applicable when something
// else holds them). And (informational) the reference's start-up choices: the readiness line, and a
// malformed variable stopping the gateway with a message naming it.
import { createConnection, createServer, type Server } from 'node:net';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { fixedPort } from '../harness/fixed-port.ts';
import type { GrpcStub } from '../harness/grpc-stub.ts';
import type { HttpClient, HttpResponse } from '../harness/http-client.ts';
import { type Launched, portOpen } from '../harness/launch.ts';
import { markedHandler, requestFields } from './exchanges.ts';
import { callRoute, GATEWAY, gateway, route, serviceCalls, shown, stub, target } from './target.ts';
import { within } from '../harness/within.ts';

const DEFAULT_HTTP_PORT = 4000;
const DEFAULT_GRPC_PORT = 5100;
/** As long as the harness gives any target to start listening. */
const START_LIMIT_MS = 30_000;

/** Waits until `port` accepts connections, the gateway has ended, or START_LIMIT_MS passed. */
async function listensOn(launched: Launched, port: number): Promise<string | undefined> {
  let ended = false;
  void launched.exited.then(() => {
    ended = true;
  });
  for (const until = Date.now() + START_LIMIT_MS; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    if (await portOpen(port)) return undefined;
    if (ended) return `the gateway exited without listening on ${port}: ${launched.stderr().trim().slice(-500) || '(no stderr)'}`;
  }
  return `nothing listens on ${port} ${START_LIMIT_MS} ms after the start`;
}

/** Any HTTP answer (the status is the routes' business), or the error that came instead. */
async function httpAnswer(http: HttpClient): Promise<string | undefined> {
  const res = await http.request({ path: '/api/capabilities' }).catch((err: Error) => err);
  return res instanceof Error ? `no HTTP answer on ${http.base.host}: ${res.message}` : undefined;
}

check('translate-web/env/port/serves-http-on-port', GATEWAY, async (t, c) => {
  const s = await stub(c, markedHandler);
  // Started without waiting for a port: a gateway listening elsewhere is this case's failure, not a target
  // that never starts.
  const g = await gateway(c, { grpcUrl: s.address, listen: [] });
  c.note(`# PORT=${g.launched.port}`);
  const notListening = await listensOn(g.launched, g.launched.port);
  if (!t.is(notListening, undefined, `PORT=${g.launched.port}`)) return;
  t.is(await httpAnswer(g.http), undefined);
});

check('translate-web/env/port-default/serves-http-on-4000', { ...GATEWAY, applicable: (c) => fixedPort(c, DEFAULT_HTTP_PORT) }, async (t, c) => {
  const s = await stub(c, markedHandler);
  const g = await gateway(c, { grpcUrl: s.address, env: { PORT: undefined }, listen: [] });
  c.note('# PORT unset');
  const notListening = await listensOn(g.launched, DEFAULT_HTTP_PORT);
  if (!t.is(notListening, undefined, 'PORT unset')) return;
  t.is(await httpAnswer(c.http(`http://127.0.0.1:${DEFAULT_HTTP_PORT}`)), undefined);
});

/** Requests of two routes (one may be what a gateway gets wrong), and the TranslateService calls that
 * reached `s` for them. */
async function callsFor(c: CaseContext, http: HttpClient, s: GrpcStub): Promise<{ answers: HttpResponse[]; calls: string[] }> {
  const sent = Date.now();
  const answers: HttpResponse[] = [];
  for (const r of [route('capabilities'), route('detect')]) answers.push(await callRoute(c, http, r, requestFields(r, `address ${c.id}`)));
  const calls = serviceCalls(s, sent).map((call) => call.path);
  return { answers, calls };
}

check('translate-web/env/grpc-url/calls-the-service-at-the-address', GATEWAY, async (t, c) => {
  const s = await stub(c, markedHandler);
  const g = await gateway(c, { grpcUrl: s.address });
  const { answers, calls } = await callsFor(c, g.http, s);
  t.true(calls.length > 0, `no call reached the service at TRANSLATE_GRPC_URL=${s.address}; the gateway answered ${answers.map(shown).join(' | ')}`);
});

/** `localhost` may be ::1 first: a forwarder there to the stub on 127.0.0.1 (none where ::1 is not to be had). */
async function ipv6Loopback(c: CaseContext, port: number): Promise<void> {
  const server: Server = createServer((socket) => {
    const upstream = createConnection({ host: '127.0.0.1', port });
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '::1', () => resolve(true));
  });
  if (!listening) return;
  server.unref();
  c.defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

check('translate-web/env/grpc-url-default/calls-localhost-5100', { ...GATEWAY, applicable: (c) => fixedPort(c, DEFAULT_GRPC_PORT) }, async (t, c) => {
  const s = await stub(c, markedHandler, DEFAULT_GRPC_PORT);
  await ipv6Loopback(c, DEFAULT_GRPC_PORT);
  const g = await gateway(c, { grpcUrl: null });
  const { answers, calls } = await callsFor(c, g.http, s);
  t.true(calls.length > 0, `no call reached a service at localhost:${DEFAULT_GRPC_PORT}; the gateway answered ${answers.map(shown).join(' | ')}`);
});

// ---------------------------------------------------------------- informational

check('translate-web/env/startup/listening-line-on-stdout', GATEWAY, async (t, c) => {
  const g = await gateway(c, { grpcUrl: (await stub(c)).address });
  // The line may follow the port opening by a moment.
  for (let i = 0; i < 50 && !g.launched.stdout().includes('listening on'); i++) await new Promise((r) => setTimeout(r, 20));
  t.regex(g.launched.stdout(), new RegExp(`listening on http://\\S+:${g.launched.port}\\n`));
});

/** How long a gateway refusing its environment may take to exit. */
const EXIT_WAIT_MS = 15_000;

for (const [name, variable, value] of [
  ['port-not-a-number-exits-1', 'PORT', 'forty'],
  ['timeout-not-a-number-exits-1', 'TRANSCRIBE_TIMEOUT_MS', '5s'],
  ['timeout-zero-exits-1', 'TRANSLATE_TIMEOUT_MS', '0'],
] as const) {
  check(`translate-web/env/startup/${name}`, GATEWAY, async (t, c) => {
    const launched = await c.launch({ env: { TRANSLATE_GRPC_URL: '127.0.0.1:1', [variable]: value }, wait: 'exit' }, target.command);
    const ended = await within(launched.exited, EXIT_WAIT_MS, undefined);
    if (!t.not(ended, undefined, `still running ${EXIT_WAIT_MS} ms after the start with ${variable}=${value}`)) return;
    t.is(ended?.code, 1, launched.stderr());
    t.true(launched.stderr().includes(variable), `stderr does not name ${variable}: ${launched.stderr()}`);
  });
}
