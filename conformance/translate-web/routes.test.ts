// The seven routes: each request is answered by calling its RPC (once: the gateway maps an HTTP call to a
// call), and the answer comes from that RPC's response (it shows a value only the stub's response holds, in
// whatever shape). Requests are sent in the target's body design (its description's `bodies`); success is
// any 2xx. Calls the gateway makes besides (a health check, a start-up probe, another RPC) are not judged.
// And (informational) the reference's choices around them: 200, 404/405 for other paths and methods, the
// client page at `/`, the OpenAPI document.
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import type { GrpcStub, RecordedCall } from '../harness/grpc-stub.ts';
import type { HttpClient } from '../harness/http-client.ts';
import { carries, markedHandler, requestFields, shows, signatureOf } from './exchanges.ts';
import { callRoute, errorCode, GATEWAY, gateway, ROUTES, rpcPath, type Route, serviceCalls, sharedGateway, sharedStub, shown, stub, succeeded } from './target.ts';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (ch, at: number) => `${at > 0 ? '-' : ''}${ch.toLowerCase()}`);
const listed = (calls: RecordedCall[]): string => calls.map((call) => call.path).join(', ') || 'none';

/** The stub and gateway of a route's case: GET carries no marker, so it gets a stub of its own and counts the
 * calls that came after its request was sent; a POST's calls carry the case's marker. */
async function setUp(c: CaseContext, r: Route): Promise<{ s: GrpcStub; http: HttpClient }> {
  if (r.method === 'GET') {
    const s = await stub(c, markedHandler);
    return { s, http: (await gateway(c, { grpcUrl: s.address })).http };
  }
  const s = await sharedStub('routes', markedHandler);
  return { s, http: (await sharedGateway(c, 'routes', { grpcUrl: s.address })).http };
}

for (const r of ROUTES) {
  check(`translate-web/routes/${r.name}/calls-${kebab(r.rpc.name)}-and-answers-with-its-response`, GATEWAY, async (t, c) => {
    const { s, http } = await setUp(c, r);
    const marker = `route ${c.id}`;
    const sent = Date.now();
    const res = await callRoute(c, http, r, requestFields(r, marker));
    const ours = s.calls.filter((call) => (r.method === 'GET' ? call.at >= sent : carries(call, marker)));
    t.is(
      ours.filter((call) => call.path === rpcPath(r.rpc)).length,
      1,
      `${r.rpc.name} calls for ${r.method} ${r.path} (calls made for it: ${listed(ours)}; answered ${shown(res)})`,
    );
    t.true(succeeded(res), `not a success: ${shown(res)}`);
    t.true(shows(res, r.rpc), `the answer does not show the ${r.rpc.name} response (${signatureOf(r.rpc)}): ${shown(res)}`);
  });
}

// ---------------------------------------------------------------- informational

const post = (r: Route | undefined) => r?.method === 'POST';

check('translate-web/routes/success-status/200-for-every-route', GATEWAY, async (t, c) => {
  const s = await sharedStub('routes', markedHandler);
  const { http } = await sharedGateway(c, 'routes', { grpcUrl: s.address });
  const answers = await Promise.all(ROUTES.map(async (r) => [r.path, (await callRoute(c, http, r, requestFields(r, `status ${c.id}`))).status] as const));
  t.deepEqual(Object.fromEntries(answers), Object.fromEntries(ROUTES.map((r) => [r.path, 200])));
});

check('translate-web/routes/unknown-and-wrong-method/404-and-405-with-allow-no-call', GATEWAY, async (t, c) => {
  const s = await stub(c, markedHandler);
  const { http } = await gateway(c, { grpcUrl: s.address });
  const sent = Date.now();
  const unknown = await http.request({ method: 'POST', path: '/api/translate-everything', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.is(unknown.status, 404, shown(unknown));
  t.is(errorCode(unknown), 'NOT_FOUND', shown(unknown));
  for (const r of ROUTES) {
    const other = post(r) ? 'GET' : 'POST';
    const res = await http.request({ method: other, path: r.path, ...(other === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
    t.is(res.status, 405, `${other} ${r.path}: ${shown(res)}`);
    t.is(res.headers.allow, r.method, `${other} ${r.path}: Allow`);
    t.is(errorCode(res), 'UNIMPLEMENTED', `${other} ${r.path}: ${shown(res)}`);
  }
  t.is(serviceCalls(s, sent).length, 0, 'calls reached the service');
});

check('translate-web/routes/client-page/html-page-with-same-origin-scripts', GATEWAY, async (t, c) => {
  const { http } = await gateway(c, { grpcUrl: (await stub(c)).address });
  const page = await http.get('/');
  t.is(page.status, 200, shown(page));
  t.regex(String(page.headers['content-type']), /^text\/html/);
  const scripts = [...page.text.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
  t.true(scripts.length > 0, 'the page has no script');
  for (const src of scripts) {
    t.false(/^(https?:)?\/\//.test(src), `script from another origin: ${src}`);
    const script = await http.get(new URL(src, `${http.base.origin}/`).pathname);
    t.is(script.status, 200, `${src}: ${shown(script)}`);
    t.regex(String(script.headers['content-type']), /javascript/, src);
  }
});

check('translate-web/routes/openapi/openapi-3-1-with-the-seven-routes', GATEWAY, async (t, c) => {
  const { http } = await gateway(c, { grpcUrl: (await stub(c)).address });
  const res = await http.get('/api/openapi.json');
  t.is(res.status, 200, shown(res));
  const doc = res.json<{ openapi?: string; paths?: Record<string, Record<string, unknown>> }>();
  t.regex(String(doc.openapi), /^3\.1\./);
  for (const r of ROUTES) t.truthy(doc.paths?.[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path} is not described`);
});
