import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { GatewayError } from './gateway-runtime.ts';
import { config, site, startGateway } from './test-support.ts';

const TLS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'static', 'tls');
const pem = (name: string) => readFileSync(join(TLS, name), 'utf8');
const SELF = { cert: pem('self-signed.crt'), key: pem('self-signed.key') };
const LEAF = { cert: pem('leaf.crt'), key: pem('leaf.key') };
const fingerprint = (cert: string) => new X509Certificate(cert).fingerprint256;

function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/__health__', rejectUnauthorized: false, agent: false }, (res) => {
      resolve((res.socket as import('node:tls').TLSSocket).getPeerCertificate().fingerprint256);
      res.resume();
    });
    req.on('error', reject);
    req.end();
  });
}

function tlsFolder(t: ExecutionContext) {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-certs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(TLS, 'self-signed.crt'), join(dir, 'cert.pem'));
  copyFileSync(join(TLS, 'self-signed.key'), join(dir, 'key.pem'));
  return { dir, tls: { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') } };
}

test('a valid pair is written atomically with its modes; the listener keeps the old certificate', async (t) => {
  const { dir, tls } = tlsFolder(t);
  const { gateway, port } = await startGateway(config([site({ tls, routes: [] }), site({ host: 'b.test', routes: [] })]));
  try {
    t.is(await servedFingerprint(port), fingerprint(SELF.cert));
    const written = await gateway.certsReload(LEAF.cert + pem('ca.crt'), LEAF.key);
    t.deepEqual(written, { certPath: tls.cert, keyPath: tls.key });
    t.is(readFileSync(tls.key, 'utf8'), LEAF.key);
    t.is(fingerprint(readFileSync(tls.cert, 'utf8')), fingerprint(LEAF.cert));
    t.is(statSync(tls.key).mode & 0o777, 0o600);
    t.is(statSync(tls.cert).mode & 0o777, 0o644);
    t.deepEqual(
      readdirSync(dir).sort(),
      ['cert.pem', 'key.pem'],
      'no temporary file left',
    );
    t.is(await servedFingerprint(port), fingerprint(SELF.cert), 'active after restart only');
  } finally {
    await gateway.shutdown();
  }
});

test('no TLS site, a mismatched pair, corrupt PEM or no certificate: bad-request, nothing written', async (t) => {
  const plain = await startGateway(config([site({ routes: [] })]));
  try {
    const error = await t.throwsAsync(plain.gateway.certsReload(LEAF.cert, LEAF.key), { instanceOf: GatewayError });
    t.is(error?.code, 'bad-request');
  } finally {
    await plain.gateway.shutdown();
  }
  const { tls } = tlsFolder(t);
  const { gateway } = await startGateway(config([site({ tls, routes: [] })]));
  try {
    const corrupt = SELF.cert.replace(/[A-Za-z]{20}/, 'A'.repeat(20));
    for (const [cert, key] of [
      [LEAF.cert, SELF.key],
      [corrupt, SELF.key],
      [SELF.key, SELF.key],
      [SELF.cert, 'not a key'],
    ] as const) {
      const error = await t.throwsAsync(gateway.certsReload(cert, key), { instanceOf: GatewayError });
      t.is(error?.code, 'bad-request', error?.message);
    }
    t.is(readFileSync(tls.cert, 'utf8'), SELF.cert);
    t.is(readFileSync(tls.key, 'utf8'), SELF.key);
  } finally {
    await gateway.shutdown();
  }
});

test('a write that fails is internal', async (t) => {
  const { dir, tls } = tlsFolder(t);
  const { gateway } = await startGateway(config([site({ tls, routes: [] })]));
  try {
    rmSync(dir, { recursive: true, force: true });
    const error = await t.throwsAsync(gateway.certsReload(LEAF.cert, LEAF.key), { instanceOf: GatewayError });
    t.is(error?.code, 'internal');
  } finally {
    await gateway.shutdown();
  }
});
