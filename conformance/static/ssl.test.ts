import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { check, PROJECT_ROOT } from '../harness/index.ts';
import { refused, runToExit, startSite } from './site.ts';

const launch = { needs: ['launch'] };

// Test-only key material, made as fixtures/static/tls/README.md says: a self-signed pair, and a leaf signed
// by a test CA. Both certificates name localhost and 127.0.0.1.
const TLS_DIR = join(PROJECT_ROOT, 'fixtures/static/tls');
const pem = (name: string): string => readFileSync(join(TLS_DIR, name), 'utf8');
const SELF = { key: pem('self-signed.key'), cert: pem('self-signed.crt') };
const LEAF = { key: pem('leaf.key'), cert: pem('leaf.crt') };
const CA = pem('ca.crt');
const fingerprint = (cert: string): string => new X509Certificate(cert).fingerprint256;

interface Handshake {
  fingerprint256: string;
  authorized: boolean;
  authorizationError: string | undefined;
}

/** One TLS handshake with 127.0.0.1:`port` (SNI localhost): the certificate served and whether `ca` vouches for it. */
function handshake(port: number, ca?: string): Promise<Handshake> {
  return new Promise((done, fail) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false, ...(ca ? { ca } : {}) });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no TLS handshake on ${port} within 10 s`)));
    socket.once('secureConnect', () => {
      const result = {
        fingerprint256: socket.getPeerCertificate().fingerprint256,
        authorized: socket.authorized,
        authorizationError: socket.authorizationError === null ? undefined : String(socket.authorizationError),
      };
      socket.end();
      done(result);
    });
    socket.once('error', fail);
  });
}

check('static/ssl/https-served/serves-configured-certificate', launch, async (t, c) => {
  const site = await startSite(
    c,
    {
      config: { folders: 'public', ssl: { key: 'tls/self.key', cert: 'tls/self.crt' } },
      files: { 'public/hello.txt': 'over tls', 'tls/self.key': SELF.key, 'tls/self.crt': SELF.cert },
    },
    'https',
  );
  const peer = await handshake(site.port, SELF.cert);
  t.is(peer.fingerprint256, fingerprint(SELF.cert));
  t.true(peer.authorized, `the configured self-signed certificate does not verify: ${peer.authorizationError}`);
  const res = await site.http.get('/hello.txt');
  t.is(res.status, 200);
  t.is(res.text, 'over tls');
});

check('static/ssl/ca-optional/key-and-cert-alone', launch, async (t, c) => {
  const site = await startSite(
    c,
    {
      config: { folders: 'public', ssl: { key: 'leaf.key', cert: 'leaf.crt' } },
      files: { 'public/hello.txt': 'no ca', 'leaf.key': LEAF.key, 'leaf.crt': LEAF.cert },
    },
    'https',
  );
  t.is((await handshake(site.port)).fingerprint256, fingerprint(LEAF.cert));
  t.is((await site.http.get('/hello.txt')).text, 'no ca');
});

check('static/ssl/ca-optional/with-ca-file', launch, async (t, c) => {
  const site = await startSite(
    c,
    {
      config: { folders: 'public', ssl: { key: 'leaf.key', cert: 'leaf.crt', ca: 'ca.crt' } },
      files: { 'public/hello.txt': 'with ca', 'leaf.key': LEAF.key, 'leaf.crt': LEAF.cert, 'ca.crt': CA },
    },
    'https',
  );
  const peer = await handshake(site.port, CA);
  t.is(peer.fingerprint256, fingerprint(LEAF.cert));
  t.true(peer.authorized, `the leaf served does not verify against the test CA: ${peer.authorizationError}`);
  t.is((await site.http.get('/hello.txt')).text, 'with ca');
});

// The working directory holds a different pair under the same names and no ca at all: resolving against
// it would serve the wrong certificate or fail to start.
check('static/ssl/paths-relative/resolved-against-config-dir', launch, async (t, c) => {
  const site = await startSite(
    c,
    {
      configName: 'conf/server-config.json',
      args: ['--config', 'conf/server-config.json'],
      config: { folders: 'public', ssl: { key: 'tls/server.key', cert: 'tls/server.crt', ca: 'tls/ca.crt' } },
      files: {
        'conf/public/hello.txt': 'relative',
        'conf/tls/server.key': LEAF.key,
        'conf/tls/server.crt': LEAF.cert,
        'conf/tls/ca.crt': CA,
        'tls/server.key': SELF.key,
        'tls/server.crt': SELF.cert,
      },
    },
    'https',
  );
  t.is((await handshake(site.port)).fingerprint256, fingerprint(LEAF.cert));
});

const redirectSite = {
  ports: 2,
  config: ([https, http]: number[]) => ({
    port: https,
    folders: 'public',
    ssl: { key: 'leaf.key', cert: 'leaf.crt', redirect: http },
  }),
  files: { 'public/deep/page.txt': 'redirected', 'leaf.key': LEAF.key, 'leaf.crt': LEAF.cert },
};

check('static/ssl/redirect-port/plain-http-gets-301-to-https', launch, async (t, c) => {
  const site = await startSite(c, redirectSite, 'https');
  const [httpsPort, httpPort] = site.launched.ports as [number, number];
  const res = await site.client(httpPort, 'http').get('/deep/page.txt');
  t.is(res.status, 301);
  const location = new URL(String(res.headers.location), `http://127.0.0.1:${httpPort}/`);
  t.is(location.protocol, 'https:');
  t.is(location.port, String(httpsPort));
  // The HTTPS site itself still answers on its port.
  t.is((await site.http.get('/deep/page.txt')).text, 'redirected');
});

check('static/ssl/redirect-location/same-host-ssl-port-path-and-query', launch, async (t, c) => {
  const site = await startSite(c, redirectSite, 'https');
  const [httpsPort, httpPort] = site.launched.ports as [number, number];
  const plain = site.client(httpPort, 'http');
  const res = await plain.get('/deep/page.txt?a=1&b=two%20words');
  t.is(res.status, 301);
  t.is(res.headers.location, `https://127.0.0.1:${httpsPort}/deep/page.txt?a=1&b=two%20words`);
  const named = await plain.get('/x', { host: `example.test:${httpPort}` });
  t.is(named.headers.location, `https://example.test:${httpsPort}/x`);
});

check('static/ssl/redirect-location/every-request-redirected', launch, async (t, c) => {
  const site = await startSite(c, redirectSite, 'https');
  const [httpsPort, httpPort] = site.launched.ports as [number, number];
  const plain = site.client(httpPort, 'http');
  const post = await plain.request({ method: 'POST', path: '/form', body: 'a=1' });
  const missing = await plain.get('/no/such/file');
  t.deepEqual([post.status, post.headers.location], [301, `https://127.0.0.1:${httpsPort}/form`]);
  t.deepEqual([missing.status, missing.headers.location], [301, `https://127.0.0.1:${httpsPort}/no/such/file`]);
});

for (const missing of ['key', 'cert', 'ca'] as const) {
  check(`static/ssl/missing-file/missing-${missing}-startup-error`, launch, async (t, c) => {
    const files: Record<string, string> = { 'leaf.key': LEAF.key, 'leaf.crt': LEAF.cert, 'ca.crt': CA };
    const paths = { key: 'leaf.key', cert: 'leaf.crt', ca: 'ca.crt' };
    delete files[paths[missing]];
    const exit = await runToExit(c, { config: { folders: '.', ssl: paths }, files });
    if (!refused(t, exit, `a missing ssl.${missing} file`)) return;
    t.regex(exit.stderr, new RegExp(`ssl\\.${missing}\\b`));
  });
}
