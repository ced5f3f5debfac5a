// The application settings as the admin endpoints show and change them (catalog recipes/settings/keys,
// get-access, patch-semantics, defaults). smtpPass is never shown: smtpPassSet says whether one is stored. A
// change is partial: only the keys present change; every key at fault (unknown, wrong type, out of range) is
// named in one 400.
import type { DeepReadonly, Settings } from '../store/index.ts';
import { type FieldProblem, validationError } from './api-error.ts';

export const SETTING_KEYS = ['allowRegistration', 'smtpHost', 'smtpPort', 'smtpUser', 'smtpPass', 'smtpFrom'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
/** Bound on the string settings: far above any host name, user, password or address, far below the body limit. */
export const SETTING_MAX_CHARS = 1000;
/** CR, LF and the other control characters: nothing a host, user or address holds, and header injection in From. */
const CONTROL_CHARS = /\p{Cc}/u;

function stringSetting(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > SETTING_MAX_CHARS) return `longer than ${SETTING_MAX_CHARS} characters`;
  return CONTROL_CHARS.test(value) ? 'must not contain control characters' : undefined;
}

/** What is wrong with `value` for `key`, or undefined. */
function settingProblem(key: SettingKey, value: unknown): string | undefined {
  switch (key) {
    case 'allowRegistration':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'smtpPort': // null: the mail module's default (587)
      return value === null || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65_535)
        ? undefined
        : 'must be an integer from 1 to 65535, or null';
    case 'smtpHost':
    case 'smtpUser':
    case 'smtpPass': // an empty string clears it
    case 'smtpFrom':
      return stringSetting(value);
  }
}

const isSettingKey = (key: string): key is SettingKey => (SETTING_KEYS as readonly string[]).includes(key);

/** The keys of a PATCH body and their new values, or a 400 naming every key at fault. */
export function settingsChangeOf(body: Record<string, unknown>): Partial<Settings> {
  const problems: FieldProblem[] = [];
  const change: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const problem = isSettingKey(key) ? settingProblem(key, value) : 'is not a setting';
    if (problem === undefined) change[key] = value;
    else problems.push({ field: key, message: problem });
  }
  if (problems.length > 0) throw validationError(problems);
  return change as Partial<Settings>;
}

/** The settings as GET and PATCH answer them: smtpPass replaced by smtpPassSet. */
export function settingsView(settings: DeepReadonly<Settings>) {
  const { allowRegistration, smtpHost, smtpPort, smtpUser, smtpPass, smtpFrom } = settings;
  return { allowRegistration, smtpHost, smtpPort, smtpUser, smtpPassSet: smtpPass !== '', smtpFrom };
}
