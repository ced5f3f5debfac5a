// Validation of the account fields of register, setup, login, forgot- and reset-password (catalog recipes/auth/register-payload,
// email-normalization, password-policy). Every problem is collected, so one 400 names every field at fault.
import { passwordProblem } from '../auth/index.ts';
import { type FieldProblem, validationError } from './api-error.ts';

export const EMAIL_MAX_CHARS = 254;
export const NAME_MAX_CHARS = 100;
/** Pragmatic address syntax: one @, no spaces, a dot in the domain (the mail server has the last word). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export interface NewAccount {
  /** Trimmed and lower-cased. */
  readonly email: string;
  readonly name: string;
  readonly password: string;
}

/** Trimmed and lower-cased, so Alice@Example.com and alice@example.com are one account. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function emailProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  if (typeof value !== 'string') return 'must be a string';
  const email = normalizeEmail(value);
  if (email.length > EMAIL_MAX_CHARS) return `longer than ${EMAIL_MAX_CHARS} characters`;
  return EMAIL_SHAPE.test(email) ? undefined : 'is not a valid email address';
}

function nameProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  if (typeof value !== 'string') return 'must be a string';
  const length = value.trim().length;
  return length >= 1 && length <= NAME_MAX_CHARS ? undefined : `must be 1 to ${NAME_MAX_CHARS} characters`;
}

function newPasswordProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  return passwordProblem(value)?.replace(/^password: /, '');
}

function check(problems: FieldProblem[], field: string, problem: string | undefined): void {
  if (problem !== undefined) problems.push({ field, message: problem });
}

/** The new account in `body`, or a 400 naming every field at fault. */
export function newAccountOf(body: Record<string, unknown>): NewAccount {
  const problems: FieldProblem[] = [];
  check(problems, 'email', emailProblem(body['email']));
  check(problems, 'password', newPasswordProblem(body['password']));
  check(problems, 'name', nameProblem(body['name']));
  if (problems.length > 0) throw validationError(problems);
  return {
    email: normalizeEmail(body['email'] as string),
    name: (body['name'] as string).trim(),
    password: body['password'] as string,
  };
}

const stringProblem = (value: unknown) => (value === undefined ? 'is required' : typeof value !== 'string' ? 'must be a string' : undefined);

/** Login's email and password: present and strings (their worth is the password check's business). */
export function credentialsOf(body: Record<string, unknown>): { email: string; password: string } {
  const problems: FieldProblem[] = [];
  for (const field of ['email', 'password'] as const) check(problems, field, stringProblem(body[field]));
  if (problems.length > 0) throw validationError(problems);
  return { email: normalizeEmail(body['email'] as string), password: body['password'] as string };
}

/**
 * Forgot-password's email, normalised: present and a string. Its shape is not judged: an address no account
 * can have gets the answer an unknown one gets (recipes/auth/forgot-password-response).
 */
export function forgotEmailOf(body: Record<string, unknown>): string {
  const problem = stringProblem(body['email']);
  if (problem !== undefined) throw validationError([{ field: 'email', message: problem }]);
  return normalizeEmail(body['email'] as string);
}

/** Reset-password's token (a string; its worth is the redeem's business) and new password (the policy). */
export function passwordResetOf(body: Record<string, unknown>): { token: string; password: string } {
  const problems: FieldProblem[] = [];
  check(problems, 'token', stringProblem(body['token']));
  check(problems, 'password', newPasswordProblem(body['password']));
  if (problems.length > 0) throw validationError(problems);
  return { token: body['token'] as string, password: body['password'] as string };
}

/** An optional string field (inviteToken), or a 400 naming it. */
export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw validationError([{ field, message: 'must be a string' }]);
  return value;
}
