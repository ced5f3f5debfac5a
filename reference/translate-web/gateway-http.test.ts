// The gateway's own HTTP rules against a fake backend: refused bodies (415, 400, 413) make no gRPC call;
// 404 and 405 with the error body; the OpenAPI document; the client page; no CORS headers. Serial: the
// tests count the backend's calls.
import { request } from 'node:http';
import test from 'ava';
import { MAX_BODY_BYTES } from './gateway-options.ts';
import { startFakeBackend, type FakeBackend } from './fake-backend.ts';
import { OPENAPI_PATH, ROUTES } from './routes.ts';
import { postJson, startGateway, type TestGateway } from './test-gateway.ts';

let backend: FakeBackend;
let gateway: TestGateway;

test.before(async () => {
  backend = await startFakeBackend();
  gateway = await startGateway({ TRANSLATE_GRPC_URL: `127.0.0.1:${backend.port}` });
});

test.after.always(async () => {
  await gateway?.stop();
  await backend?.stop();
});

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

/** [name, body as sent, Content-Type, expected status, a word of the message]. */
const REFUSED: [string, string, string | null, number, RegExp][] = [
  ['no Content-Type', '{"text":"x"}', null, 415, /application\/json/],
  ['text/plain', '{"text":"x"}', 'text/plain', 415, /text\/plain/],
  ['a charset other than UTF-8', '{"text":"x"}', 'application/json; charset=iso-8859-1', 415, /UTF-8/],
  ['invalid JSON', '{"text":', 'application/json', 400, /not valid JSON/],
  ['an empty body', '', 'application/json', 400, /not valid JSON/],
  ['an array body', '[]', 'application/json', 400, /JSON object/],
  ['a string body', '"text"', 'application/json', 400, /JSON object/],
  ['an unknown field', '{"text":"x","txet":"y"}', 'application/json', 400, /unknown field "txet"/],
  ['a number for a string field', '{"text":5}', 'application/json', 400, /"text" must be a string/],
  ['null for a string field', '{"text":null}', 'application/json', 400, /"text" must be a string/],
  ['a field given under both names', '{"targetLanguage":"es","target_language":"de"}', 'application/json', 400, /given twice/],
  ['invalid UTF-8', '{"text":"\xff"}', 'application/json', 400, /UTF-8/],
];

for (const [name, body, type, status, message] of REFUSED) {
  test.serial(`POST /api/translate with ${name} → ${status} INVALID_ARGUMENT, no gRPC call`, async (t) => {
    const calls = backend.calls.length;
    const response = await fetch(`${gateway.url}/api/translate`, {
      method: 'POST',
      headers: type === null ? {} : { 'Content-Type': type },
      body: name === 'invalid UTF-8' ? Buffer.from(body, 'latin1') : body,
    });
    t.is(response.status, status);
    t.is(response.headers.get('content-type'), 'application/json');
    const error = await errorOf(response);
    t.is(error.code, 'INVALID_ARGUMENT');
    t.regex(error.message, message);
    t.is(backend.calls.length, calls);
  });
}

const BAD_BASE64 = ['not base64!', 'QUJD=X', 'A', 'QUJDRA=', 'QU JD'];

for (const audioData of BAD_BASE64) {
  test.serial(`audioData ${JSON.stringify(audioData)} is not base64 → 400`, async (t) => {
    const response = await postJson(`${gateway.url}/api/transcribe`, { audioData });
    t.is(response.status, 400);
    t.deepEqual(await errorOf(response), { code: 'INVALID_ARGUMENT', message: 'field "audioData" is not valid base64' });
  });
}

test.serial('a wrong type in a number field, and a float beyond float32, are 400', async (t) => {
  const text = await postJson(`${gateway.url}/api/synthesize`, { text: 'x', speed: '1.5' });
  t.is(text.status, 400);
  t.regex((await errorOf(text)).message, /"speed" must be a number/);
  const huge = await postJson(`${gateway.url}/api/synthesize`, { text: 'x', speed: 1e39 });
  t.is(huge.status, 400);
});

test.serial('the request reaches the service as the protobuf message (omitted fields default)', async (t) => {
  const response = await postJson(`${gateway.url}/api/translate`, { text: 'Hallo', target_language: 'en' });
  t.is(response.status, 200);
  t.deepEqual(await response.json(), { translatedText: 'slow answer', detectedLanguage: '', modelUsed: '' });
  const request = backend.calls.at(-1)!.request as Record<string, unknown>;
  t.like(request, { text: 'Hallo', targetLanguage: 'en', sourceLanguage: '', model: '' });
});

/** Sends headers announcing `length` bytes and at most `send` of them; resolves with status and body. */
function rawPost(path: string, headers: Record<string, string>, chunks: Iterable<Buffer>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${gateway.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    // The gateway may close the connection while the rest is still being written: not a test failure.
    req.on('error', (err) => (err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err)));
    const iterator = chunks[Symbol.iterator]();
    const pump = (): void => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

test.serial(`a Content-Length above ${MAX_BODY_BYTES} bytes → 413 RESOURCE_EXHAUSTED before the body is read`, async (t) => {
  const started = Date.now();
  const { status, body } = await rawPost('/api/transcribe', { 'Content-Length': String(MAX_BODY_BYTES + 1) }, [Buffer.from('{"audioData":"')]);
  t.is(status, 413);
  t.is(JSON.parse(body).error.code, 'RESOURCE_EXHAUSTED');
  t.true(Date.now() - started < 2_000);
});

test.serial('a chunked body that grows past the limit → 413', async (t) => {
  const chunk = Buffer.alloc(1024 * 1024, 'A');
  function* body() {
    yield Buffer.from('{"audioData":"');
    for (let i = 0; i <= MAX_BODY_BYTES / chunk.length; i++) yield chunk;
    yield Buffer.from('"}');
  }
  const { status, body: answer } = await rawPost('/api/transcribe', { 'Transfer-Encoding': 'chunked' }, body());
  t.is(status, 413);
  t.is(JSON.parse(answer).error.code, 'RESOURCE_EXHAUSTED');
});

test.serial('a body just under the limit is read (50 MB of audio fits)', async (t) => {
  const audio = Buffer.alloc(50_000_000, 1).toString('base64');
  const response = await postJson(`${gateway.url}/api/transcribe`, { audioData: audio });
  t.is(response.status, 200);
  t.is(((backend.calls.at(-1)!.request as { audioData: Uint8Array }).audioData).length, 50_000_000);
});

test.serial('unknown paths → 404 NOT_FOUND with the error body', async (t) => {
  for (const path of ['/api/nope', '/api', '/api/translate/', '/API/translate', '/nope.html', `/${encodeURIComponent('fünke file#.txt')}`]) {
    const response = await fetch(gateway.url + path);
    t.is(response.status, 404, path);
    t.is(response.headers.get('content-type'), 'application/json');
    t.is((await errorOf(response)).code, 'NOT_FOUND');
  }
});

test.serial('a route with another method → 405 UNIMPLEMENTED with Allow', async (t) => {
  const cases: [string, string, string][] = [
    ...ROUTES.map((route): [string, string, string] => [route.method === 'GET' ? 'POST' : 'GET', route.path, route.method]),
    ['PUT', '/api/translate', 'POST'],
    ['OPTIONS', '/api/detect', 'POST'],
    ['DELETE', OPENAPI_PATH, 'GET'],
    ['POST', '/', 'GET, HEAD'],
  ];
  for (const [method, path, allow] of cases) {
    const response = await fetch(gateway.url + path, { method });
    t.is(response.status, 405, `${method} ${path}`);
    t.is(response.headers.get('allow'), allow);
    t.is((await errorOf(response)).code, 'UNIMPLEMENTED');
  }
});

test.serial('the OpenAPI document is 3.1 and lists the seven routes with their methods and bodies', async (t) => {
  const response = await fetch(`${gateway.url}${OPENAPI_PATH}`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json');
  const document = await response.json();
  t.regex(document.openapi, /^3\.1\./);
  for (const route of ROUTES) {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()];
    t.truthy(operation, `${route.method} ${route.path}`);
    t.is(operation.responses['200'].content['application/json'].schema.$ref, `#/components/schemas/${route.rpc.output.name}`);
    t.is(operation.requestBody?.content['application/json'].schema.$ref, route.method === 'POST' ? `#/components/schemas/${route.rpc.input.name}` : undefined);
  }
  t.deepEqual(Object.keys(document.components.schemas.Error.properties.error.properties), ['code', 'message']);
  t.is(document.components.schemas.TranscribeAudioRequest.properties.audioData.contentEncoding, 'base64');
});

test.serial('GET / serves the client page; its script and style come from the same origin', async (t) => {
  const page = await fetch(`${gateway.url}/`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type')!, /^text\/html/);
  t.regex(page.headers.get('content-security-policy')!, /default-src 'self'/);
  const html = await page.text();
  t.regex(html, /<script type="module" src="app.js">/);
  for (const [asset, type] of [['app.js', /javascript/], ['api-client.js', /javascript/], ['wav.js', /javascript/], ['style.css', /text\/css/]] as const) {
    const response = await fetch(`${gateway.url}/${asset}`);
    t.is(response.status, 200, asset);
    t.regex(response.headers.get('content-type')!, type);
  }
});

test.serial('no CORS headers, even for a cross-origin request or preflight', async (t) => {
  const simple = await fetch(`${gateway.url}/api/capabilities`, { headers: { Origin: 'https://elsewhere.example' } });
  t.is(simple.status, 200);
  t.is(simple.headers.get('access-control-allow-origin'), null);
  const preflight = await fetch(`${gateway.url}/api/translate`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
  });
  t.is(preflight.status, 405);
  t.is(preflight.headers.get('access-control-allow-origin'), null);
  t.is(preflight.headers.get('access-control-allow-methods'), null);
});

test.serial('requests are forwarded concurrently (no rate limit, no queue)', async (t) => {
  backend.delayMs = 300;
  t.teardown(() => {
    backend.delayMs = 0;
  });
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(`${gateway.url}/api/translate`, { text: 'x' })));
  t.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
  t.true(Date.now() - started < 1_500, `${Date.now() - started} ms`);
});

test.serial('a client that goes away in the middle of its body leaves the gateway serving, silently', async (t) => {
  const calls = backend.calls.length;
  const req = request(`${gateway.url}/api/translate`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' } });
  req.on('error', () => {});
  req.write('{"text":"');
  await new Promise((resolve) => setTimeout(resolve, 100));
  req.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is((await fetch(`${gateway.url}/api/capabilities`)).status, 200);
  t.is(backend.calls.length, calls + 1);
  t.is(gateway.stderr(), '');
});
