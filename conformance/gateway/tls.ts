// TLS material for the certificate cases: two key pairs of the project's fixtures (fixtures/static/tls),
// and the certificate a TLS listener presents, by its SHA-256 fingerprint.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { PROJECT_ROOT } from '../harness/index.ts';

const fixture = (name: string): string => readFileSync(join(PROJECT_ROOT, 'fixtures', 'static', 'tls', name), 'utf8');

export interface Pair {
  cert: string;
  key: string;
  fingerprint: string;
}

const pair = (cert: string, key: string): Pair => ({ cert: fixture(cert), key: fixture(key), fingerprint: new X509Certificate(fixture(cert)).fingerprint256 });

/** The pair a TLS site starts with, and another one to upload. */
export const FIRST = pair('leaf.crt', 'leaf.key');
export const SECOND = pair('self-signed.crt', 'self-signed.key');

/** The files of a TLS site's setup (`tls: { cert: 'cert.pem', key: 'key.pem' }`). */
export const tlsFiles = (p: Pair = FIRST): Record<string, string> => ({ 'cert.pem': p.cert, 'key.pem': p.key });

/** The fingerprint of the certificate served on the loopback `port`. */
export function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, servername: 'localhost' }, () => {
      const cert = socket.getPeerX509Certificate();
      socket.destroy();
      if (cert) resolve(cert.fingerprint256);
      else reject(new Error(`no certificate presented on port ${port}`));
    });
    socket.setTimeout(5000, () => socket.destroy(new Error(`no TLS handshake on port ${port} within 5 s`)));
    socket.once('error', reject);
  });
}
