// The gateway's environment: HTTP on PORT, else 4000; its calls go to TRANSLATE_GRPC_URL, else
// localhost:5100 (a stub listening there shows it; the cases on those fixed ports are not-applicable when
// something else holds them). And (informational) the reference's start-up choices: the readiness line, and
// a malformed variable stopping the gateway with a message naming it.
import { check } from '../harness/check.ts';
import { fixedPort } from '../harness/fixed-port.ts';
import { freePorts, releasePorts } from '../harness/free-ports.ts';
import { portOpen } from '../harness/launch.ts';
import { markedHandler, signatureOf } from './exchanges.ts';
import { callRoute, GATEWAY, gateway, route, rpcPath, shown, stub, target } from './target.ts';

const capabilities = route('capabilities');
const DEFAULT_HTTP_PORT = 4000;
const DEFAULT_GRPC_PORT = 5100;

check('translate-web/env/port/serves-http-on-port', GATEWAY, async (t, c) => {
  const s = await stub(c, markedHandler);
  // Started without waiting for a port: a gateway listening elsewhere is this case's failure, not a target
  // that never starts.
  const g = await gateway(c, { grpcUrl: s.address, listen: [] });
  c.note(`# PORT=${g.launched.port}`);
  let open = false;
  for (const until = Date.now() + 15_000; !open && Date.now() < until; ) {
    open = await portOpen(g.launched.port);
    if (!open) await new Promise((r) => setTimeout(r, 50));
  }
  t.true(open, `nothing listens on PORT=${g.launched.port} 15 s after the start`);
  const res = await callRoute(g.http, capabilities);
  t.is(res.status, 200, shown(res));
  t.true(res.text.includes(signatureOf(capabilities.rpc)), shown(res));
});

check('translate-web/env/port-default/serves-http-on-4000', { ...GATEWAY, applicable: (c) => fixedPort(c, DEFAULT_HTTP_PORT) }, async (t, c) => {
  const s = await stub(c, markedHandler);
  const g = await gateway(c, { grpcUrl: s.address, env: { PORT: undefined }, listen: [DEFAULT_HTTP_PORT] });
  const res = await callRoute(g.http, capabilities);
  t.is(res.status, 200, shown(res));
  t.true(res.text.includes(signatureOf(capabilities.rpc)), shown(res));
});

check('translate-web/env/grpc-url/closed-port-fails-stub-answers', GATEWAY, async (t, c) => {
  const [closed] = await freePorts(1);
  c.defer(() => releasePorts([closed!]));
  const s = await stub(c, markedHandler);
  const [down, up] = await Promise.all([gateway(c, { grpcUrl: `127.0.0.1:${closed}` }), gateway(c, { grpcUrl: s.address })]);
  const [failing, working] = await Promise.all([callRoute(down.http, capabilities), callRoute(up.http, capabilities)]);
  t.true(failing.status >= 400, `TRANSLATE_GRPC_URL at a closed port: ${shown(failing)}`);
  t.is(working.status, 200, `TRANSLATE_GRPC_URL at the stub: ${shown(working)}`);
  t.true(working.text.includes(signatureOf(capabilities.rpc)), shown(working));
  t.deepEqual(
    s.calls.map((call) => call.path),
    [rpcPath(capabilities.rpc)],
    'calls at the stub',
  );
});

check('translate-web/env/grpc-url-default/calls-localhost-5100', { ...GATEWAY, applicable: (c) => fixedPort(c, DEFAULT_GRPC_PORT) }, async (t, c) => {
  const s = await stub(c, markedHandler, DEFAULT_GRPC_PORT);
  const g = await gateway(c, { grpcUrl: null });
  const res = await callRoute(g.http, capabilities);
  t.is(res.status, 200, shown(res));
  t.deepEqual(
    s.calls.map((call) => call.path),
    [rpcPath(capabilities.rpc)],
    'calls at localhost:5100',
  );
});

// ---------------------------------------------------------------- informational

check('translate-web/env/startup/listening-line-on-stdout', GATEWAY, async (t, c) => {
  const g = await gateway(c, { grpcUrl: (await stub(c)).address });
  // The line may follow the port opening by a moment.
  for (let i = 0; i < 50 && !g.launched.stdout().includes('listening on'); i++) await new Promise((r) => setTimeout(r, 20));
  t.regex(g.launched.stdout(), new RegExp(`listening on http://\\S+:${g.launched.port}\\n`));
});

for (const [name, variable, value] of [
  ['port-not-a-number-exits-1', 'PORT', 'forty'],
  ['timeout-not-a-number-exits-1', 'TRANSCRIBE_TIMEOUT_MS', '5s'],
  ['timeout-zero-exits-1', 'TRANSLATE_TIMEOUT_MS', '0'],
] as const) {
  check(`translate-web/env/startup/${name}`, GATEWAY, async (t, c) => {
    const launched = await c.launch({ env: { TRANSLATE_GRPC_URL: '127.0.0.1:1', [variable]: value }, wait: 'exit' }, target.command);
    const { code } = await launched.exited;
    t.is(code, 1, launched.stderr());
    t.true(launched.stderr().includes(variable), `stderr does not name ${variable}: ${launched.stderr()}`);
  });
}
