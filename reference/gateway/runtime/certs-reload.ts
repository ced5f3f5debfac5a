// POST /certs/reload: the pair is checked (config/tls-pair.ts: every block of the chain, the key matches), then
// both files are written atomically to the first TLS site's tls.cert/tls.key: each to a temporary file in
// the same folder, synced, given its mode (key 0600, certificate 0644), then renamed over the old one.
// Calls are taken one at a time. The running listeners keep their certificate until restart (catalog
// gateway/certs/*).
import { randomUUID } from 'node:crypto';
import { chmod, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import pLimit from 'p-limit';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { pairProblem } from '../config/tls-pair.ts';
import { GatewayError } from './gateway-runtime.ts';

const CERT_MODE = 0o644;
const KEY_MODE = 0o600;

const badRequest = (message: string, cause?: unknown): GatewayError =>
  new GatewayError('bad-request', message, { cause });

export function checkPair(cert: string, key: string): void {
  const problem = pairProblem(cert, key);
  if (problem !== undefined) throw badRequest(problem);
}

/** One certificate write at a time: two calls' renames never interleave into a mismatched pair on disk. */
const oneAtATime = pLimit(1);

async function writeTemp(path: string, text: string, mode: number): Promise<string> {
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  const file = await open(temp, 'wx', mode);
  try {
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
  await chmod(temp, mode);
  return temp;
}

export function writePair(config: GatewayConfig, cert: string, key: string): Promise<{ certPath: string; keyPath: string }> {
  return oneAtATime(() => writeChecked(config, cert, key));
}

async function writeChecked(config: GatewayConfig, cert: string, key: string): Promise<{ certPath: string; keyPath: string }> {
  const site = config.sites.find((s) => s.tls !== undefined);
  if (site?.tls === undefined) throw badRequest('tls: no site has tls.cert and tls.key configured');
  checkPair(cert, key);
  const { cert: certPath, key: keyPath } = site.tls;
  const temps: string[] = [];
  try {
    temps.push(await writeTemp(certPath, cert, CERT_MODE));
    temps.push(await writeTemp(keyPath, key, KEY_MODE));
    await rename(temps[0]!, certPath);
    await rename(temps[1]!, keyPath);
  } catch (error) {
    await Promise.all(temps.map((temp) => rm(temp, { force: true })));
    throw new GatewayError('internal', `writing the certificate files failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { certPath, keyPath };
}
