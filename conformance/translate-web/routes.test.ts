// The seven routes: each request is answered by calling its RPC, once and no other, and the 200 answer
// comes from that RPC's response (the body shows a value only the stub's response holds). And
// (informational) the reference's choices around them: 404/405 for other paths and methods, the client page
// at `/`, the OpenAPI document.
import { check } from '../harness/check.ts';
import type { RecordedCall } from '../harness/grpc-stub.ts';
import { carries, markedHandler, requestBody, signatureOf } from './exchanges.ts';
import { callRoute, errorCode, GATEWAY, gateway, ROUTES, rpcPath, type Route, sharedGateway, sharedStub, shown, stub } from './target.ts';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (ch, at: number) => `${at > 0 ? '-' : ''}${ch.toLowerCase()}`);

for (const r of ROUTES) {
  check(`translate-web/routes/${r.name}/calls-${kebab(r.rpc.name)}-and-answers-with-its-response`, GATEWAY, async (t, c) => {
    let http: Awaited<ReturnType<typeof gateway>>['http'];
    let mine: () => RecordedCall[];
    const marker = `route ${c.id}`;
    if (r.method === 'GET') {
      // No body to mark the request with: a stub of the case's own sees only its calls.
      const s = await stub(c, markedHandler);
      ({ http } = await gateway(c, { grpcUrl: s.address }));
      mine = () => s.calls;
    } else {
      const s = await sharedStub('routes', markedHandler);
      ({ http } = await sharedGateway(c, 'routes', { grpcUrl: s.address }));
      mine = () => s.calls.filter((call) => carries(call, marker));
    }
    const res = await callRoute(http, r, requestBody(r, marker));
    t.is(res.status, 200, shown(res));
    t.deepEqual(
      mine().map((call) => call.path),
      [rpcPath(r.rpc)],
      `the calls ${r.method} ${r.path} made`,
    );
    t.true(res.text.includes(signatureOf(r.rpc)), `the answer does not show the ${r.rpc.name} response (${signatureOf(r.rpc)}): ${shown(res)}`);
  });
}

// ---------------------------------------------------------------- informational

const post = (r: Route | undefined) => r?.method === 'POST';

check('translate-web/routes/unknown-and-wrong-method/404-and-405-with-allow-no-call', GATEWAY, async (t, c) => {
  const s = await stub(c, markedHandler);
  const { http } = await gateway(c, { grpcUrl: s.address });
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
  t.is(s.calls.length, 0, 'calls reached the service');
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
