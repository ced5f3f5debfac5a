// Credentials the site-authentication cases send: basic headers, and JWTs made with jose for the keys a
// site is given — an HS256 secret, an RS256 public key (PEM), a JWKS file — plus the tokens a site must
// refuse: signed with another key, altered after signing, expired, unsigned (`alg: none`), not a JWT.
import { randomBytes } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';

export const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

export type TokenKind = 'hs256' | 'rs256' | 'jwks' | 'other-key' | 'tampered' | 'expired' | 'none' | 'malformed';

export interface JwtKeys {
  /** The site's HS256 secret. */
  secret: string;
  /** The site's RS256 public key, PEM. */
  publicKey: string;
  /** The JWKS file's text (one RS256 key, with a `kid`). */
  jwks: string;
  /** A token of that kind (valid ones expire in ten minutes). */
  token(kind: TokenKind): Promise<string>;
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Fresh keys (an RS256 pair for the PEM key, another for the JWKS file). */
export async function jwtKeys(): Promise<JwtKeys> {
  const secret = randomBytes(32).toString('hex');
  const pem = await generateKeyPair('RS256', { extractable: true });
  const set = await generateKeyPair('RS256', { extractable: true });
  const kid = `k-${randomBytes(4).toString('hex')}`;
  const jwk: JWK = { ...(await exportJWK(set.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const hmac = new TextEncoder().encode(secret);
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: 'conformance-suite' };
  const signed = (alg: string, exp: number, kidHeader?: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg, typ: 'JWT', ...(kidHeader ? { kid: kidHeader } : {}) })
      .setIssuedAt(now - 60)
      .setExpirationTime(exp);
  return {
    secret,
    publicKey: await exportSPKI(pem.publicKey),
    jwks: JSON.stringify({ keys: [jwk] }),
    async token(kind) {
      switch (kind) {
        case 'hs256':
          return signed('HS256', now + 600).sign(hmac);
        case 'rs256':
          return signed('RS256', now + 600).sign(pem.privateKey);
        case 'jwks':
          return signed('RS256', now + 600, kid).sign(set.privateKey);
        case 'other-key':
          return signed('HS256', now + 600).sign(new TextEncoder().encode(`${secret}-other`));
        case 'expired':
          // An hour past: beyond any clock tolerance a gateway may allow.
          return signed('HS256', now - 3600).sign(hmac);
        case 'tampered': {
          const [head, , signature] = (await signed('HS256', now + 600).sign(hmac)).split('.');
          return `${head}.${b64url({ ...claims, sub: 'admin', exp: now + 600 })}.${signature}`;
        }
        case 'none':
          return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, exp: now + 600 })}.`;
        case 'malformed':
          return 'not-a-jwt';
      }
    },
  };
}
