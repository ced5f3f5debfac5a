// The OpenAPI document's components (catalog recipes/docs/format-and-access): the bearer scheme, the JSON Schemas
// of the bodies the account, settings, user and invite endpoints read and answer (the recipe ones are in
// openapi-recipe-schemas.ts) and the path and query parameters. Bounds come from the constants the code checks
// with, so the document cannot drift from them.
import { ONE_TIME_LIFETIMES_MS, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, ROLES } from '../auth/index.ts';
import { EMAIL_MAX_CHARS, NAME_MAX_CHARS } from './account-fields.ts';
import { PACKAGE_ASSETS } from './docs-assets.ts';
import { DOCS_INIT_SCRIPT } from './docs-page.ts';
import { dateTime, type JsonObject, nullable, object, ref, string } from './openapi-json-schema.ts';
import { recipeParameters, recipeSchemas } from './openapi-recipe-schemas.ts';
import { SETTING_MAX_CHARS } from './settings-fields.ts';

const email = string({ format: 'email', maxLength: EMAIL_MAX_CHARS, description: 'Trimmed and lower-cased.' });
const password = string({ minLength: PASSWORD_MIN_CHARS, maxLength: PASSWORD_MAX_CHARS });
const name = string({ minLength: 1, maxLength: NAME_MAX_CHARS });
const settingString = string({ maxLength: SETTING_MAX_CHARS, description: 'No control characters; "" clears it.' });
const inviteDays = ONE_TIME_LIFETIMES_MS.invite / 86_400_000;

const accountSchemas: JsonObject = {
  Error: object(
    {
      error: string({ description: 'A human-readable message.' }),
      details: { type: 'array', items: ref('FieldProblem'), description: 'On a 400 for input: every field at fault.' },
    },
    ['error'],
  ),
  FieldProblem: object({ field: string(), message: string() }),
  Health: object({ status: { const: 'ok' }, uptime: { type: 'number', minimum: 0, description: 'Seconds since start.' } }),
  Message: object({ message: string() }),
  User: object({
    id: string({ format: 'uuid' }),
    email: string({ format: 'email' }),
    name: string(),
    role: { enum: [...ROLES] },
    isActive: { type: 'boolean' },
    emailVerified: { type: 'boolean' },
    createdAt: dateTime,
  }),
  SetupStatus: object({ adminExists: { type: 'boolean' } }),
  NewAccount: object({ email, password, name }, ['email', 'password', 'name']),
  Registration: object(
    { email, password, name, inviteToken: string({ description: 'From an invite link; required while allowRegistration is false.' }) },
    ['email', 'password', 'name'],
  ),
  Registered: object(
    {
      user: ref('User'),
      message: string(),
      verificationUrl: string({ format: 'uri', description: 'Only while smtpHost is empty (otherwise the link is mailed).' }),
    },
    ['user', 'message'],
  ),
  Credentials: object({ email: string(), password: string() }),
  Session: object({ token: string({ description: 'A JWT (HS256) for the Authorization: Bearer header.' }), user: ref('User') }),
  ForgotPassword: object({ email: string() }),
  ForgotPasswordAnswer: object(
    { message: string(), resetUrl: string({ format: 'uri', description: 'Only while smtpHost is empty, and only for an existing account.' }) },
    ['message'],
  ),
  ResetPassword: object({ token: string(), password }),
  Settings: object({
    allowRegistration: { type: 'boolean' },
    smtpHost: string(),
    smtpPort: nullable({ type: 'integer', minimum: 1, maximum: 65_535 }),
    smtpUser: string(),
    smtpPassSet: { type: 'boolean', description: 'Whether an SMTP password is stored; the password itself is never shown.' },
    smtpFrom: string(),
  }),
  SettingsChange: object(
    {
      allowRegistration: { type: 'boolean' },
      smtpHost: settingString,
      smtpPort: nullable({ type: 'integer', minimum: 1, maximum: 65_535 }),
      smtpUser: settingString,
      smtpPass: settingString,
      smtpFrom: settingString,
    },
    [],
    true,
  ),
  UserChange: object({ role: { enum: [...ROLES] }, isActive: { type: 'boolean' } }, [], true),
  InviteRequest: object({ email: { ...email, description: 'Mail the link there too (when SMTP is configured).' } }, [], true),
  CreatedInvite: object(
    {
      id: string({ format: 'uuid' }),
      token: string({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'Shown only here: only its hash is stored.' }),
      url: string({ format: 'uri', description: 'APP_URL/register?inviteToken=<token>' }),
      createdAt: dateTime,
      expiresAt: { ...dateTime, description: `${inviteDays} days after createdAt.` },
      mailedTo: string({ format: 'email', description: 'When the link was mailed.' }),
    },
    ['id', 'token', 'url', 'createdAt', 'expiresAt'],
  ),
  Invite: object({ id: string({ format: 'uuid' }), createdAt: dateTime, expiresAt: dateTime }),
};

const pathId = (what: string): JsonObject => ({ name: 'id', in: 'path', required: true, description: `The ${what}'s id.`, schema: string() });

export const components: JsonObject = {
  securitySchemes: {
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token of POST /api/auth/login or /api/admin/setup.' },
  },
  schemas: { ...accountSchemas, ...recipeSchemas },
  parameters: {
    UserId: pathId('user'),
    InviteId: pathId('invite'),
    VerificationToken: { name: 'token', in: 'query', required: true, description: 'The token of the verification link.', schema: string() },
    DocsAsset: { name: 'asset', in: 'path', required: true, schema: { enum: [...PACKAGE_ASSETS, DOCS_INIT_SCRIPT] } },
    ...recipeParameters,
  },
};
