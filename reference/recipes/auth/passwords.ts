// Password policy and hashing (catalog recipes/auth/password-policy, passwords-hashed, password-hash-algorithm).
//
// Policy: 8 to 128 characters (Unicode code points, after NFKC normalisation, as NIST SP 800-63B asks, so
// the same password typed on another keyboard or OS still matches); no composition rules. The upper bound is
// checked on the raw string length before anything else, so a 10 MB password is refused in constant time and
// never reaches the hash.
//
// Hash: argon2id, version 0x13, memory 19 MiB (19456 KiB), 2 passes, parallelism 1, 32-byte output, 16-byte
// random salt — OWASP's recommended minimum for argon2id. The stored form is the PHC string
// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash), so the parameters travel with each hash and can be raised later
// (needsRehash says when a stored hash uses other ones).
import { type Algorithm, hash, type Options, parseOptions, verify } from '@node-rs/argon2';
import { AuthError } from './auth-error.ts';

export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 128;

/** argon2id (Algorithm.Argon2id: a const enum, which isolatedModules cannot reference by name). */
const ARGON2ID = 2 as Algorithm;

export const ARGON2_OPTIONS: Readonly<Options> = Object.freeze({
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
});

/** What is wrong with `value` as a new password, or undefined when it meets the policy. */
export function passwordProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'password: must be a string';
  // A code point takes one or two UTF-16 units, so a string longer than twice the bound is too long whatever it
  // holds: refused before normalising or counting, which would cost time on a huge input.
  if (value.length > PASSWORD_MAX_CHARS * 2) return `password: longer than ${PASSWORD_MAX_CHARS} characters`;
  const chars = codePoints(value.normalize('NFKC'));
  if (chars < PASSWORD_MIN_CHARS) return `password: shorter than ${PASSWORD_MIN_CHARS} characters`;
  if (chars > PASSWORD_MAX_CHARS) return `password: longer than ${PASSWORD_MAX_CHARS} characters`;
  return undefined;
}

/** The PHC-string hash of a new password; an AuthError (password-policy) when it breaks the policy. */
export async function hashPassword(password: unknown): Promise<string> {
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new AuthError('password-policy', problem);
  return hash((password as string).normalize('NFKC'), ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `storedHash`. With no stored hash (unknown account) a dummy hash is verified all the
 * same, so the answer takes as long as for a real account and does not tell which emails exist. A non-string or
 * over-long candidate is false at once (no stored password can be that long).
 */
export async function verifyPassword(storedHash: string | undefined, password: unknown): Promise<boolean> {
  if (typeof password !== 'string' || password.length > PASSWORD_MAX_CHARS * 2) return false;
  if (storedHash === undefined) {
    dummyHash ??= hash('dummy password for unknown accounts', ARGON2_OPTIONS);
    await verify(await dummyHash, password.normalize('NFKC'));
    return false;
  }
  return verify(storedHash, password.normalize('NFKC'));
}

/** Whether a stored hash was made with other parameters than ARGON2_OPTIONS (rehash it at the next login). */
export function needsRehash(storedHash: string): boolean {
  const used = parseOptions(storedHash);
  return (
    used.algorithm !== ARGON2_OPTIONS.algorithm ||
    used.memoryCost !== ARGON2_OPTIONS.memoryCost ||
    used.timeCost !== ARGON2_OPTIONS.timeCost ||
    used.parallelism !== ARGON2_OPTIONS.parallelism ||
    used.outputLen !== ARGON2_OPTIONS.outputLen
  );
}

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}
