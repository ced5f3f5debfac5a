// A certificate chain and its private key as the gateway takes them (catalog gateway/certs/*): every PEM block
// of the chain is a whole CERTIFICATE that parses (not only the first: a broken block after a good one would
// pass a reload and fail the next start), nothing else is in the file, and the key belongs to the first
// certificate. POST /certs/reload, the start of a TLS listener and `gateway validate` all ask here.
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { GatewayConfig } from './gateway-config.ts';

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** What is wrong with `cert` (a PEM chain) and `key` (a PEM private key) as a pair, or undefined. */
export function pairProblem(cert: string, key: string): string | undefined {
  const blocks = [...cert.matchAll(BLOCK)];
  if (blocks.length === 0) return 'cert: no PEM certificate found';
  const outside = cert.replace(BLOCK, '').trim();
  if (outside !== '') return `cert: text outside the PEM blocks (${outside.includes('-----BEGIN') ? 'a block without its END line' : 'not PEM'})`;
  const certificates: X509Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    if (block[1] !== 'CERTIFICATE') return `cert: block ${i + 1} of the chain is a ${block[1]}, not a CERTIFICATE`;
    try {
      certificates.push(new X509Certificate(block[0]));
    } catch (error) {
      return `cert: block ${i + 1} of the chain is not a valid certificate (${(error as Error).message})`;
    }
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    return `key: not a valid PEM private key (${(error as Error).message})`;
  }
  let matches = false;
  try {
    matches = certificates[0]!.checkPrivateKey(privateKey);
  } catch {
    matches = false;
  }
  return matches ? undefined : 'cert, key: the private key does not belong to the certificate';
}

/** The problems of the config's TLS files, one line each (`sites[i].tls: …`): unreadable, or not a pair. */
export function tlsFileProblems(config: GatewayConfig): string[] {
  const problems: string[] = [];
  for (const [i, site] of config.sites.entries()) {
    if (site.tls === undefined) continue;
    let cert: string;
    let key: string;
    try {
      cert = readFileSync(site.tls.cert, 'utf8');
      key = readFileSync(site.tls.key, 'utf8');
    } catch (error) {
      problems.push(`sites[${i}].tls: ${(error as Error).message}`);
      continue;
    }
    const problem = pairProblem(cert, key);
    if (problem !== undefined) problems.push(`sites[${i}].tls (${site.tls.cert}, ${site.tls.key}): ${problem}`);
  }
  return problems;
}
