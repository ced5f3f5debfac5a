import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import polka from 'polka';
import type { Handler, SiteContext } from '../site/handler.ts';
import { CLIENT_TAG, createHotReload, injectHtml } from './hot-reload.ts';

const ctx: SiteContext = { baseDir: '/srv/site', mode: 'development', warn: () => {} };

const pages: [string, string][] = [
  ['<html><body><p>x</p></body></html>', `<html><body><p>x</p>${CLIENT_TAG}</body></html>`],
  ['<BODY>a</BODY><!-- </body> -->tail', `<BODY>a</BODY><!-- ${CLIENT_TAG}</body> -->tail`],
  ['<p>no body</p>', `<p>no body</p>${CLIENT_TAG}`],
];
for (const [html, expected] of pages) {
  test(`injectHtml: ${JSON.stringify(html)}`, (t) => {
    t.is(injectHtml(html), expected);
  });
}

/** Reads server-sent events until `count` blocks have arrived. */
function events(res: IncomingMessage, count: number): Promise<string[]> {
  return new Promise((done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      const blocks = text.split('\n\n').filter((b) => b !== '');
      if (text.endsWith('\n\n') && blocks.length >= count) done(blocks);
    });
  });
}

test('hot reload: client script, connected event, reload event, close ends the stream', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'hot reload #ü-'));
  const hot = createHotReload([folder], ctx);
  const notFound: Handler = (_req, res) => {
    res.statusCode = 404;
    res.end('Not Found');
  };
  const app = polka({ onNoMatch: notFound }).use(hot.handler);
  await new Promise<void>((done) => app.listen(0, '127.0.0.1', done));
  const server = app.server as Server;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(async () => {
    await hot.close();
    server.closeAllConnections();
    server.close();
    await rm(folder, { recursive: true, force: true });
  });

  const client = await fetch(`${url}/__hot-reload__/client.js`);
  t.is(client.headers.get('content-type'), 'application/javascript; charset=utf-8');
  t.regex(await client.text(), /new EventSource\("\/__hot-reload__"\)[\s\S]*3000/);
  t.is((await fetch(`${url}/__hot-reload__/other`)).status, 404);

  const stream = await new Promise<IncomingMessage>((done) => get(`${url}/__hot-reload__`, done));
  t.is(stream.headers['content-type'], 'text/event-stream');
  const received = events(stream, 2);
  // chokidar needs a moment to set up the watch before the change.
  await new Promise((done) => setTimeout(done, 300));
  await writeFile(join(folder, 'page.html'), 'changed');
  t.deepEqual(await received, ['event: connected\ndata: {}', 'event: reload\ndata: {"path":"page.html"}']);

  const ended = new Promise((done) => stream.on('end', done));
  await hot.close();
  await ended;
  t.pass('close() ended the open stream');
});
