// The OpenAPI paths of health, accounts, first-run setup, settings, admin users, invites and the docs themselves
// (the document's endpoint table B and the reference's extras; answers as reference/recipes/README.md "Server").
import type { JsonObject } from './openapi-json-schema.ts';
import { operation } from './openapi-operations.ts';

const health = (id: string) =>
  operation({ id, tag: 'health', summary: 'Liveness', access: 'public', success: { status: 200, description: 'The process is up.', schema: 'Health' } });

const LONG_CACHE = { 'Cache-Control': { description: 'public, max-age=86400', schema: { type: 'string' } } };

export const accountPaths: JsonObject = {
  '/health': { get: health('health') },
  '/api/health': { get: health('apiHealth') },

  '/api/auth/register': {
    post: operation({
      id: 'register',
      writes: true,
      tag: 'auth',
      summary: 'Register an account',
      description:
        'Checks allowRegistration and inviteToken. The email must then be verified before login. While smtpHost is empty the verification link is in the answer (verificationUrl), so an address is verified by whoever registers it.',
      access: 'public',
      body: { schema: 'Registration' },
      success: { status: 201, description: 'Account created (unverified).', schema: 'Registered' },
      errors: {
        400: 'Invalid fields, or an inviteToken that is unknown, used, revoked or expired.',
        403: 'Before setup ("Setup required"), or registration closed and no inviteToken ("Registration is closed").',
        409: 'The email is already registered.',
        502: 'The verification mail could not be sent (the account is not kept).',
      },
    }),
  },
  '/api/auth/verify-email': {
    get: operation({
      id: 'verifyEmail',
      writes: true,
      tag: 'auth',
      summary: 'Verify an email address',
      access: 'public',
      parameters: ['VerificationToken'],
      success: { status: 200, description: '{"message": "Email verified"}', schema: 'Message' },
      errors: { 400: 'A missing, unknown, used or expired token.' },
    }),
  },
  '/api/auth/login': {
    post: operation({
      id: 'login',
      tag: 'auth',
      summary: 'Log in: a bearer token',
      access: 'public',
      body: { schema: 'Credentials' },
      success: { status: 200, description: 'A session.', schema: 'Session' },
      errors: {
        400: 'email or password missing or not strings.',
        401: 'Unknown email or wrong password ("Invalid email or password").',
        403: 'The account is disabled or its email not verified.',
      },
    }),
  },
  '/api/auth/me': {
    get: operation({ id: 'me', tag: 'auth', summary: 'The current user', access: 'bearer', success: { status: 200, description: 'The user of the token.', schema: 'User' } }),
  },
  '/api/auth/forgot-password': {
    post: operation({
      id: 'forgotPassword',
      writes: true,
      tag: 'auth',
      summary: 'Ask for a password reset link',
      description:
        'The same message whether or not an account has the email. While smtpHost is empty (SMTP not configured) the reset link is in the answer (resetUrl), valid 15 minutes: anyone who knows an address, the admin\'s included, can set its password. Configure smtpHost, smtpPort, smtpUser, smtpPass and smtpFrom (PATCH /api/admin/settings) to mail it instead (valid 1 hour). Every reset is logged.',
      access: 'public',
      body: { schema: 'ForgotPassword' },
      success: { status: 200, description: 'Issued (for an existing account).', schema: 'ForgotPasswordAnswer' },
      errors: {
        429: 'More than 3 requests for this address in 15 minutes ("Too many password reset requests…"), whether or not an account has it; Retry-After gives the seconds to wait.',
        502: 'The reset mail could not be sent.',
      },
    }),
  },
  '/api/auth/reset-password': {
    post: operation({
      id: 'resetPassword',
      writes: true,
      tag: 'auth',
      summary: 'Set a new password with a reset token',
      description: 'Tokens issued before the reset are refused afterwards.',
      access: 'public',
      body: { schema: 'ResetPassword' },
      success: { status: 200, description: '{"message": "Password updated"}', schema: 'Message' },
      errors: { 400: 'A password outside the policy, or a missing, unknown, used or expired token.' },
    }),
  },

  '/api/admin/setup': {
    get: operation({ id: 'setupStatus', tag: 'setup', summary: 'Whether an admin exists', access: 'public', success: { status: 200, description: 'First-run state.', schema: 'SetupStatus' } }),
    post: operation({
      id: 'setup',
      writes: true,
      tag: 'setup',
      summary: 'Create the first admin',
      description: 'The admin is verified and logged in at once.',
      access: 'public',
      body: { schema: 'NewAccount' },
      success: { status: 201, description: 'The admin and its session.', schema: 'Session' },
      errors: { 409: 'An admin exists already ("Setup already completed").' },
    }),
  },
  '/api/admin/settings': {
    get: operation({ id: 'getSettings', tag: 'settings', summary: 'Application settings', access: 'admin', success: { status: 200, description: 'The settings.', schema: 'Settings' } }),
    patch: operation({
      id: 'updateSettings',
      writes: true,
      tag: 'settings',
      summary: 'Change settings',
      description: 'Partial: only the keys sent change; smtpPass omitted stays.',
      access: 'admin',
      body: { schema: 'SettingsChange' },
      success: { status: 200, description: 'The settings as GET shows them.', schema: 'Settings' },
      errors: { 400: 'Unknown keys or invalid values, each named in details; nothing changed.' },
    }),
  },

  '/api/admin/users': {
    get: operation({
      id: 'listUsers',
      tag: 'admin-users',
      summary: 'List users',
      description: 'Oldest account first, unpaginated.',
      access: 'admin',
      success: { status: 200, description: 'Every user.', schema: { type: 'array', items: { $ref: '#/components/schemas/User' } } },
    }),
  },
  '/api/admin/users/{id}': {
    patch: operation({
      id: 'updateUser',
      writes: true,
      tag: 'admin-users',
      summary: "Change a user's role or status",
      description: "Holds from the user's next request, for tokens issued before it too.",
      access: 'admin',
      parameters: ['UserId'],
      body: { schema: 'UserChange' },
      success: { status: 200, description: 'The user after the change.', schema: 'User' },
      errors: { 400: 'Any other key, or another value; nothing changed.', 404: 'No such user.', 409: 'No active admin would remain.' },
    }),
    delete: operation({
      id: 'deleteUser',
      writes: true,
      tag: 'admin-users',
      summary: 'Delete a user',
      description: "Also deletes the user's recipes, their photos, the favorites pointing at them and the user's favorites.",
      access: 'admin',
      parameters: ['UserId'],
      success: { status: 204, description: 'Deleted: the user can no longer log in.' },
      errors: { 404: 'No such user.', 409: 'No active admin would remain.' },
    }),
  },

  '/api/admin/invites': {
    post: operation({
      id: 'createInvite',
      writes: true,
      tag: 'invites',
      summary: 'Create an invite link',
      description: 'Single use, valid 7 days. The token and link are shown only in this answer.',
      access: 'admin',
      body: { schema: 'InviteRequest', optional: true },
      success: { status: 201, description: 'The invite, its token and its link.', schema: 'CreatedInvite' },
      errors: { 502: 'The invite mail could not be sent (the invite is revoked).' },
    }),
    get: operation({
      id: 'listInvites',
      tag: 'invites',
      summary: 'List active invites',
      description: 'Not used, revoked or expired; newest first; without tokens.',
      access: 'admin',
      success: { status: 200, description: 'The active invites.', schema: { type: 'array', items: { $ref: '#/components/schemas/Invite' } } },
    }),
  },
  '/api/admin/invites/{id}': {
    delete: operation({
      id: 'revokeInvite',
      writes: true,
      tag: 'invites',
      summary: 'Revoke an invite',
      access: 'admin',
      parameters: ['InviteId'],
      success: { status: 204, description: 'Revoked: its token registers nobody.' },
      errors: { 404: 'No such invite, or one no longer active.' },
    }),
  },

  '/api/openapi.json': {
    get: operation({ id: 'openApiDocument', tag: 'docs', summary: 'This document', access: 'public', success: { status: 200, description: 'OpenAPI 3.1.', schema: { type: 'object' } } }),
  },
  '/api/docs': {
    get: operation({
      id: 'docsPage',
      tag: 'docs',
      summary: 'Interactive documentation (Swagger UI)',
      access: 'public',
      success: { status: 200, description: 'The page.', media: 'text/html', schema: { type: 'string' } },
    }),
  },
  '/api/docs/{asset}': {
    get: operation({
      id: 'docsAsset',
      tag: 'docs',
      summary: "A file of the documentation page (swagger-ui-dist's)",
      access: 'public',
      parameters: ['DocsAsset'],
      success: { status: 200, description: 'The file (JavaScript, CSS or PNG); 304 with If-None-Match.', media: '*/*', schema: { type: 'string' }, headers: LONG_CACHE },
      errors: { 404: 'Not a file of the page.' },
    }),
  },
};
