// The admin API's only credential (catalog gateway/auth/*): `Authorization: Bearer <token>`, the scheme word
// in any case, then one or more spaces. Both tokens are hashed to equal-length digests first, so
// timingSafeEqual compares in constant time and the configured token's length does not leak either.
import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER = /^bearer +(\S.*)$/i;

const digest = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();

/** A check of the Authorization header; always true when no token is configured. */
export function bearerCheck(token: string | undefined): (header: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const expected = digest(Buffer.from(token, 'utf8'));
  return (header) => {
    const given = header === undefined ? undefined : BEARER.exec(header)?.[1];
    // A missing or malformed header still costs one comparison, like a wrong token.
    // Node reads header bytes as latin1: back to the bytes the client sent, compared with the token's UTF-8.
    const match = timingSafeEqual(digest(Buffer.from(given ?? '', 'latin1')), expected);
    return given !== undefined && match;
  };
}
