// Checks of secrets a client sends (passwords, API keys) that do not leak by their timing what is
// configured: both sides are hashed to SHA-256 digests first, so timingSafeEqual compares equal lengths and
// a configured secret's length does not show; an unknown user costs the same as a wrong password.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** A check of user name and password against `users` (name → password). */
export function passwordCheck(users: Iterable<readonly [string, string]>): (name: string, password: string) => boolean {
  const expected = new Map<string, Buffer>();
  for (const [name, password] of users) expected.set(name, digest(password));
  // Compared against when the user is unknown.
  const decoy = digest(`decoy:${Math.random()}`);
  return (name, password) => {
    const wanted = expected.get(name);
    const same = timingSafeEqual(digest(password), wanted ?? decoy);
    return same && wanted !== undefined;
  };
}

/** What a key stands for, looked up by digest (the lookup sees only the hash of what was sent). */
export function keyLookup<T>(entries: Iterable<readonly [string, T]>): (given: string) => T | undefined {
  const byDigest = new Map<string, T>();
  for (const [key, value] of entries) byDigest.set(digest(key).toString('base64'), value);
  return (given) => byDigest.get(digest(given).toString('base64'));
}

/** Membership in a set of keys (keyLookup). */
export function keyCheck(keys: Iterable<string>): (given: string) => boolean {
  const lookup = keyLookup([...keys].map((key) => [key, true] as const));
  return (given) => lookup(given) === true;
}
