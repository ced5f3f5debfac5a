// The serving sections named by document 001 ("Config sections named by the API": proxy, static, middleware,
// logging among the hot-reloadable ones; http2, compression, upload among the other keys). The document names
// them only, so what each does is the reference's choice (catalog gateway/site-serving/*, unspecified):
// these cases are informational, and each section is a capability rendered through the target's adapter.
// What reaches the upstream is judged at the recording upstream, files (static, upload, log) in the
// gateway's own folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect as h2connect } from 'node:http2';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type CaseContext, check } from '../harness/index.ts';
import { multipart } from '../harness/multipart-body.ts';
import { errorBody, jsonObject } from './admin-client.ts';
import { type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { waitFor } from './poll.ts';
import type { GatewaySetup, SiteSetup } from './setup.ts';
import { type Feature, needs, offers } from './target.ts';
import { fared, freshPath, send } from './traffic.ts';
import { type Answer, type Received, sharedUpstreams, startUpstreams, type Upstream } from './upstream.ts';

const BIG = 'compressible text '.repeat(300);
const LOG = 'logs/access.log';
const UPLOAD_BOUND = 1000;

/** A text answer of declared length (the compression cases). */
const text = (body: string): Answer => ({ headers: { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(body)) }, body });

/** The shared upstream's answers: `/big/` a long text, `/small/` a short one, else the JSON echo. */
function answer(r: Received): Answer {
  if (r.url.includes('/big/')) return text(BIG);
  if (r.url.includes('/small/')) return text('tiny');
  return {};
}

const FILES = {
  'public/hello.txt': 'HELLO FROM DISK',
  'public/index.html': '<h1>home</h1>',
  'public/.secret': 'dot file',
};

const SECTIONS: [Feature, Partial<SiteSetup>][] = [
  ['proxy', { proxy: { preserveHost: false, forwardedHeaders: false } }],
  ['static', { static: { root: 'public', path: '/assets' } }],
  ['middleware', { middleware: [{ stripPrefix: '/v1' }, { addPrefix: '/api' }, { redirectRegex: { pattern: '^/api/old/(.*)$', replacement: '/new/$1', status: 301 } }] }],
  ['logging', { logging: { format: 'common', file: LOG } }],
  ['compression', { compression: { minBytes: 100 } }],
  ['upload', { upload: { path: '/upload', dir: 'uploads', maxBytes: UPLOAD_BOUND } }],
  ['http2', { http2: true }],
];

/** One site per section the target offers, all routing / to the shared upstream `a`. */
async function servingGateway(c: CaseContext): Promise<{ g: Gateway; a: Upstream; site: Partial<Record<Feature, number>> }> {
  const [a] = await sharedUpstreams('site-serving', 'a');
  a!.answer = answer;
  const offered = SECTIONS.filter(([feature]) => offers(feature));
  const g = await sharedGateway(
    c,
    'site-serving',
    () => ({ sites: offered.map(([, section]) => ({ routes: [{ path: '/', targets: [a!.url] }], ...section })) }),
    { files: FILES },
  );
  return { g, a: a!, site: Object.fromEntries(offered.map(([feature], i) => [feature, i])) };
}

check('gateway/site-serving/proxy/target-host-and-no-forwarded-headers', needs('proxy'), async (t, c) => {
  const { g, a, site } = await servingGateway(c);
  const sent = await send(g.site(site.proxy), '/', [a], { 'x-forwarded-for': '203.0.113.9' });
  t.true(sent.reached, fared(sent));
  const got = a.got(sent.path)[0]?.headers ?? {};
  t.is(got.host, new URL(a.url).host, 'preserveHost false: the Host names the target');
  t.is(got['x-forwarded-for'], '203.0.113.9', "forwardedHeaders false: the client's X-Forwarded-For passes as sent");
  t.is(got['x-forwarded-proto'], undefined, 'forwardedHeaders false: no X-Forwarded-Proto added');
});

check('gateway/site-serving/static/files-served-missing-fall-through', needs('static'), async (t, c) => {
  const { g, a, site } = await servingGateway(c);
  const client = g.site(site.static);
  const file = await client.get('/assets/hello.txt');
  t.is(file.status, 200);
  t.is(file.text, FILES['public/hello.txt']);
  t.regex(String(file.headers['content-type']), /^text\/plain/);
  t.is((await client.get('/assets/')).text, FILES['public/index.html'], 'the folder answers its index file');
  const missing = await send(client, '/assets', [a]);
  t.true(missing.reached, `a file that does not exist goes on to the route: ${fared(missing)}`);
  const outside = await send(client, '/', [a]);
  t.true(outside.reached, `a path outside the mount goes to the route: ${fared(outside)}`);
  const dot = await client.get('/assets/.secret');
  t.not(dot.text, FILES['public/.secret'], 'a dot file is not served');
  for (const path of ['/assets/../public/.secret', '/assets/%2e%2e/public/hello.txt']) {
    const climbed = await client.get(path);
    t.false(climbed.text.includes('dot file') || climbed.text === FILES['public/hello.txt'], `${path}: ${climbed.status} ${climbed.text.slice(0, 80)}`);
  }
});

check('gateway/site-serving/middleware/path-rewritten-and-redirected', needs('middleware'), async (t, c) => {
  const { g, a, site } = await servingGateway(c);
  const client = g.site(site.middleware);
  const sent = await send(client, '/v1', [a]);
  t.true(sent.reached, fared(sent));
  t.is(sent.arrived[0], `/api${sent.path.slice('/v1'.length)}`, 'stripPrefix then addPrefix');
  const moved = await client.get('/v1/old/page?q=1');
  t.is(moved.status, 301);
  t.is(moved.headers.location, '/new/page?q=1');
  t.is(a.received.filter((r) => r.url.includes('/old/page')).length, 0, 'the redirected request is not forwarded');
});

check('gateway/site-serving/logging/line-per-answer-in-file', needs('logging'), async (t, c) => {
  const { g, a, site } = await servingGateway(c);
  const sent = await send(g.site(site.logging), '/', [a]);
  t.true(sent.reached, fared(sent));
  const file = join(g.dir, LOG);
  const logged = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const line = () => logged().split('\n').find((l) => l.includes(sent.path));
  t.true(await waitFor(() => line() !== undefined, 5000), `no line for ${sent.path} in ${LOG}: ${logged().slice(-300)}`);
  t.regex(line() ?? '', /^\S+ - \S+ \[[^\]]+\] "GET \S+ HTTP\/1\.1" 200 \S+$/, 'the common log format');
});

check('gateway/site-serving/compression/gzip-when-accepted-and-large', needs('compression'), async (t, c) => {
  const { g, a, site } = await servingGateway(c);
  const client = g.site(site.compression);
  const big = await client.request({ path: freshPath('/big'), headers: { 'accept-encoding': 'gzip' } });
  t.is(big.status, 200);
  t.is(big.headers['content-encoding'], 'gzip');
  t.is(gunzipSync(big.body).toString(), BIG);
  t.regex(String(big.headers.vary), /accept-encoding/i);
  const plain = await client.request({ path: freshPath('/big') });
  t.is(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: sent as is');
  t.is(plain.text, BIG);
  const small = await client.request({ path: freshPath('/small'), headers: { 'accept-encoding': 'gzip' } });
  t.is(small.headers['content-encoding'], undefined, 'under minBytes: sent as is');
  t.true(a.received.length >= 3);
});

check('gateway/site-serving/upload/stored-bounded-nothing-kept-on-refusal', needs('upload'), async (t, c) => {
  const { g, a, site } = await servingGateway(c);
  const client = g.site(site.upload);
  const folder = join(g.dir, 'uploads');
  const stored = (): string[] => (existsSync(folder) ? readdirSync(folder) : []);
  const before = stored();
  const one = multipart([{ name: 'notes.txt', type: 'text/plain', content: 'uploaded through the gateway' }]);
  const res = await client.request({ method: 'POST', path: '/upload', headers: { 'content-type': one.contentType }, body: one.body });
  t.is(res.status, 200, res.text);
  const files = res.json<{ files: { file: string; size: number; originalName: string }[] }>().files;
  t.is(files.length, 1);
  t.like(files[0], { size: 28, originalName: 'notes.txt' });
  t.is(readFileSync(join(folder, files[0]!.file), 'utf8'), 'uploaded through the gateway');
  const after = stored();
  const big = multipart([{ name: 'big.bin', content: 'b'.repeat(UPLOAD_BOUND + 1) }]);
  const over = await client.request({ method: 'POST', path: '/upload', headers: { 'content-type': big.contentType }, body: big.body });
  t.is(over.status, 413, over.text);
  t.is(typeof over.json<{ error?: unknown }>().error, 'string');
  const text = await client.request({ method: 'POST', path: '/upload', headers: { 'content-type': 'text/plain' }, body: 'not a form' });
  t.is(text.status, 400, text.text);
  t.deepEqual(stored().sort(), after.sort(), 'a refused upload keeps nothing');
  t.is(after.length, before.length + 1);
  const other = await send(client, '/upload', [a]);
  t.true(other.reached, `a GET under the upload path goes to the route: ${fared(other)}`);
});

check('gateway/site-serving/http2/h2c-and-http1-on-one-port', needs('http2'), async (t, c) => {
  const { g, a, site } = await servingGateway(c);
  const port = g.rendered.sitePorts[site.http2!]!;
  const path = freshPath('/');
  const session = h2connect(`http://127.0.0.1:${port}`);
  c.defer(() => session.destroy());
  const answer = await new Promise<{ status: number; body: string } | string>((resolve) => {
    session.on('error', (error) => resolve(`no HTTP/2 answer: ${error.message}`));
    const stream = session.request({ ':path': path });
    let body = '';
    let status = 0;
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', (error) => resolve(`no HTTP/2 answer: ${error.message}`));
  });
  t.true(typeof answer !== 'string' && answer.status === 200, typeof answer === 'string' ? answer : `status ${answer.status}`);
  t.is(a.got(path).length, 1, 'the HTTP/2 request reached the upstream');
  const h1 = await send(g.site(site.http2), '/', [a]);
  t.true(h1.reached && h1.res?.status === 200, `HTTP/1.1 on the same port: ${fared(h1)}`);
});

check('gateway/site-serving/http2/reload-changing-it-refused', needs('http2'), async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const site = (http2: boolean): GatewaySetup => ({ sites: [{ routes: [{ path: '/', targets: [a!.url] }], http2 }] });
  const g = await startGateway(c, site(false));
  await g.rewrite(site(true));
  const res = await g.admin.post('/reload');
  if (!errorBody(t, res, 400, 'POST /reload with http2 switched on')) return;
  t.regex(String(jsonObject(res)?.message), /http2/, 'the message names http2');
  const sent = await send(g.http, '/', [a!]);
  t.true(sent.reached, `the gateway still serves as before: ${fared(sent)}`);
});
