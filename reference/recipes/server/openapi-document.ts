// The recipe manager's OpenAPI 3.1 document, served at GET /api/openapi.json and rendered by the docs page
// (catalog recipes/docs/*): every endpoint of the document's table B, /health, and the reference's extras
// (/api/health, the docs, the uploaded photos), with the bodies the server reads and answers, the bearer (JWT)
// scheme, and the one error body. The server is given as "/", relative to wherever the document was fetched,
// so "Try it out" calls the server that serves the page.
import { accountPaths } from './openapi-account-paths.ts';
import { recipePaths } from './openapi-recipe-paths.ts';
import type { JsonObject } from './openapi-json-schema.ts';
import { components } from './openapi-schemas.ts';

export const OPENAPI_VERSION = '3.1.0';

const TAGS: readonly [string, string][] = [
  ['health', 'Liveness'],
  ['auth', 'Accounts, login and password reset'],
  ['setup', 'First run'],
  ['settings', 'Application settings (admin)'],
  ['admin-users', 'Users (admin)'],
  ['invites', 'Invite links (admin)'],
  ['recipes', 'Recipes, search, tags and import'],
  ['photos', 'Recipe and step photos'],
  ['favorites', 'Saved recipes'],
  ['categories', 'Recipe categories'],
  ['docs', 'This documentation'],
];

const DESCRIPTION = [
  'A self-hosted, multi-user recipe manager. Every endpoint but /health and the uploaded photos is under /api,',
  'with no version segment. Bodies are JSON (photos: multipart/form-data, field `photo`), at most 1 MiB.',
  '',
  'Authenticate with `Authorization: Bearer <token>`, the token of POST /api/auth/login or /api/admin/setup.',
  'Errors answer `{"error": "…"}`, with `details: [{field, message}]` naming every field at fault on a 400.',
  '',
  '**Warning: while SMTP is not configured (smtpHost empty, the default), verification and password reset links are',
  'returned in the API answers, as the recipe manager\'s specification requires: anyone who knows an account\'s',
  'email address, the admin\'s included, can set its password.** Set smtpHost, smtpPort, smtpUser, smtpPass and',
  'smtpFrom with PATCH /api/admin/settings to mail the links instead. Until then, answered reset links are valid',
  '15 minutes, forgot-password takes 3 requests per address per 15 minutes, and every reset is logged.',
  '',
  'Limits: a recipe\'s fields at most 64 KiB of JSON (413); per user 1,000 recipes and 8 MiB by default (403). A',
  'write the disk refuses answers 507 (disk full) or 503 (read-only), and changes nothing.',
].join('\n');

/** A new copy of the document (callers may keep or change it). */
export function openApiDocument(): JsonObject {
  return structuredClone({
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Recipe manager API',
      version: '1.0.0',
      description: DESCRIPTION,
    },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: TAGS.map(([name, description]) => ({ name, description })),
    paths: { ...accountPaths, ...recipePaths },
    components,
  });
}
