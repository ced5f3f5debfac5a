// POST /certs/reload (document 001, behaviour rule 6, "Errors"): the pair checked, both files written to the
// configured paths, the old certificate served until a restart. Each case that uploads starts its own TLS
// gateway (cert.pem and key.pem beside its config); refusals share one.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ExecutionContext } from 'ava';
import { check, type CaseContext } from '../harness/index.ts';
import { errorBody, is2xx, jsonObject, needOk, shown, successBody } from './admin-client.ts';
import { type Gateway, restartGateway, sharedGateway, startGateway } from './gateway.ts';
import type { GatewaySetup } from './setup.ts';
import { needs } from './target.ts';
import { FIRST, SECOND, servedFingerprint, tlsFiles } from './tls.ts';
import { sharedUpstreams, startUpstreams } from './upstream.ts';

const TLS = needs('tls');
const tlsSetup = (url: string): GatewaySetup => ({ sites: [{ tls: { cert: 'cert.pem', key: 'key.pem' }, routes: [{ path: '/', targets: [url] }] }] });

async function ownTls(c: CaseContext): Promise<Gateway> {
  const [up] = await startUpstreams(c, 'up');
  return startGateway(c, tlsSetup(up!.url), { files: tlsFiles() });
}

/** The file's TLS gateway: `refused` for calls that must change nothing, `upload` for cases that upload the
 * second pair and judge the answer, the files or the certificate still served (each upload is the same). */
async function sharedTls(c: CaseContext, key: 'refused' | 'upload' = 'refused'): Promise<Gateway> {
  const [up] = await sharedUpstreams('certs', 'up');
  return sharedGateway(c, key, () => tlsSetup(up!.url), { files: tlsFiles() });
}

const files = (g: Gateway) => ({ cert: readFileSync(join(g.dir, 'cert.pem'), 'utf8'), key: readFileSync(join(g.dir, 'key.pem'), 'utf8') });

/** Calls that must be refused and leave both files as they were. */
async function refusedUnchanged(t: ExecutionContext, c: CaseContext, g: Gateway, body: unknown, what: string): Promise<void> {
  const before = files(g);
  const res = await c.need(`POST /certs/reload (${what})`, g.admin.post('/certs/reload', body));
  t.false(is2xx(res), `${what}: ${shown(res)}`);
  t.deepEqual(files(g), before, `${what}: the files changed`);
}

check('gateway/certs/cert-required/refused-without-cert', TLS, async (t, c) => {
  const g = await sharedTls(c);
  await refusedUnchanged(t, c, g, { key: SECOND.key }, 'no cert');
});

check('gateway/certs/key-required/refused-without-key', TLS, async (t, c) => {
  const g = await sharedTls(c);
  await refusedUnchanged(t, c, g, { cert: SECOND.cert }, 'no key');
});

check('gateway/certs/validates-pair/mismatch-refused', TLS, async (t, c) => {
  const g = await sharedTls(c);
  await refusedUnchanged(t, c, g, { cert: SECOND.cert, key: FIRST.key }, 'a certificate with the key of another');
});

check('gateway/errors/certs-invalid-pair-400/mismatch-corrupt-no-cert', TLS, async (t, c) => {
  const g = await sharedTls(c);
  const corrupt = SECOND.cert.replace(/(-----BEGIN CERTIFICATE-----\n)(.{20})/, '$1AAAAAAAAAAAAAAAAAAAA');
  for (const [what, body] of [
    ['mismatched pair', { cert: SECOND.cert, key: FIRST.key }],
    ['corrupt PEM', { cert: corrupt, key: SECOND.key }],
    ['no certificate', { cert: SECOND.key, key: SECOND.key }],
  ] as const) {
    const res = await g.admin.post('/certs/reload', body);
    t.is(res.status, 400, `${what}: ${shown(res)}`);
  }
});

check('gateway/errors/certs-invalid-pair-400/corrupt-block-in-chain', TLS, async (t, c) => {
  // The cert field is a leaf with its chain: a corrupt block after a good leaf is corrupt PEM all the same.
  const g = await sharedTls(c);
  const chain = `${SECOND.cert.trimEnd()}\n-----BEGIN CERTIFICATE-----\nMIIBcorrupt0000\n-----END CERTIFICATE-----\n`;
  const before = files(g);
  const res = await c.need('POST /certs/reload (a corrupt block after the leaf)', g.admin.post('/certs/reload', { cert: chain, key: SECOND.key }));
  t.is(res.status, 400, shown(res));
  t.deepEqual(files(g), before, 'the files changed');
});

check('gateway/certs/response/ok-paths-note', TLS, async (t, c) => {
  const g = await sharedTls(c, 'upload');
  const body = successBody(t, await g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key }), 'upload of a valid pair');
  t.is(body?.status, 'ok', JSON.stringify(body));
  t.is(typeof body?.cert_path, 'string', JSON.stringify(body));
  t.is(typeof body?.key_path, 'string', JSON.stringify(body));
  t.is(typeof body?.note, 'string', JSON.stringify(body));
});

check('gateway/certs/atomic-write/configured-paths-whole-files', TLS, async (t, c) => {
  // A gateway of its own: no other upload may be writing the files while this one reads them.
  const g = await ownTls(c);
  const old = files(g);
  // A reader during the upload sees each file whole: the old or the new one.
  const seen = new Set<string>();
  let reading = true;
  const reader = (async () => {
    while (reading) {
      for (const name of ['cert.pem', 'key.pem']) {
        try {
          seen.add(`${name}\n${readFileSync(join(g.dir, name), 'utf8')}`);
        } catch {
          seen.add(`${name}\n(missing)`);
        }
      }
      await new Promise((r) => setImmediate(r));
    }
  })();
  let body: Awaited<ReturnType<typeof needOk>>;
  try {
    body = await needOk(c, 'POST /certs/reload', g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key }));
  } finally {
    // Whatever became of the upload, the reader stops: it would spin on after the case.
    reading = false;
    await reader;
  }
  const now = files(g);
  t.is(now.cert.trim(), SECOND.cert.trim(), 'tls.cert holds the uploaded certificate');
  t.is(now.key.trim(), SECOND.key.trim(), 'tls.key holds the uploaded key');
  t.is(resolve(g.dir, String(body.cert_path)), join(g.dir, 'cert.pem'), `cert_path ${body.cert_path}`);
  t.is(resolve(g.dir, String(body.key_path)), join(g.dir, 'key.pem'), `key_path ${body.key_path}`);
  const whole = new Set([`cert.pem\n${old.cert}`, `cert.pem\n${now.cert}`, `key.pem\n${old.key}`, `key.pem\n${now.key}`]);
  for (const s of seen) t.true(whole.has(s), `a reader saw a file neither old nor new: ${s.slice(0, 200)}`);
});

check('gateway/certs/active-after-restart-only/old-until-restart', TLS, async (t, c) => {
  const g = await ownTls(c);
  const port = g.rendered.sitePorts[0]!;
  const before = await c.need('the certificate served', servedFingerprint(port));
  if (before !== FIRST.fingerprint) c.inconclusive(`the site does not serve the configured certificate (${before})`);
  await needOk(c, 'POST /certs/reload', g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key }));
  t.is(await servedFingerprint(port), FIRST.fingerprint, 'after the upload, before a restart');
  const again = await restartGateway(c, g);
  t.is(await servedFingerprint(again.rendered.sitePorts[0]!), SECOND.fingerprint, 'after a restart');
});

check('gateway/certs/reload-does-not-activate/old-after-reload', TLS, async (t, c) => {
  const g = await sharedTls(c, 'upload');
  const port = g.rendered.sitePorts[0]!;
  await needOk(c, 'POST /certs/reload', g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key }));
  await needOk(c, 'POST /reload', g.admin.post('/reload'));
  t.is(await servedFingerprint(port), FIRST.fingerprint, 'after POST /reload');
});

check('gateway/errors/certs-write-failure-500/target-path-unwritable', TLS, async (t, c) => {
  const g = await ownTls(c);
  // The certificate file, once loaded, turned into a folder with a file in it: no write or rename over it
  // can succeed, whoever runs the gateway.
  rmSync(join(g.dir, 'cert.pem'));
  mkdirSync(join(g.dir, 'cert.pem'));
  writeFileSync(join(g.dir, 'cert.pem', 'keep'), 'x');
  errorBody(t, await g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key }), 500, 'upload over an unwritable certificate path');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/certs/missing-field-400/names-field', TLS, async (t, c) => {
  const g = await sharedTls(c);
  for (const [field, body] of [
    ['cert', { key: SECOND.key }],
    ['key', { cert: SECOND.cert }],
  ] as const) {
    const res = await g.admin.post('/certs/reload', body);
    t.is(res.status, 400, shown(res));
    t.regex(String(jsonObject(res)?.message), new RegExp(field), shown(res));
  }
});

check('gateway/certs/which-site/first-tls-site-absolute', TLS, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const g = await startGateway(
    c,
    {
      sites: [
        { routes: [{ path: '/', targets: [up!.url] }] },
        { tls: { cert: 'a/cert.pem', key: 'a/key.pem' }, routes: [{ path: '/', targets: [up!.url] }] },
        { tls: { cert: 'b/cert.pem', key: 'b/key.pem' }, routes: [{ path: '/', targets: [up!.url] }] },
      ],
    },
    { files: { 'a/cert.pem': FIRST.cert, 'a/key.pem': FIRST.key, 'b/cert.pem': FIRST.cert, 'b/key.pem': FIRST.key } },
  );
  const body = await needOk(c, 'POST /certs/reload', g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key }));
  t.is(body.cert_path, join(g.dir, 'a', 'cert.pem'));
  t.is(body.key_path, join(g.dir, 'a', 'key.pem'));
});

check('gateway/certs/file-modes/key-0600-cert-0644', TLS, async (t, c) => {
  const g = await sharedTls(c, 'upload');
  await needOk(c, 'POST /certs/reload', g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key }));
  t.is(statSync(join(g.dir, 'key.pem')).mode & 0o777, 0o600);
  t.is(statSync(join(g.dir, 'cert.pem')).mode & 0o777, 0o644);
});
