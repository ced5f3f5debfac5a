// The admin invites (catalog recipes/invites/*), all behind the admin check (401, 403):
//
//   POST   /api/admin/invites      {email?}  201 {id, token, url, createdAt, expiresAt, mailedTo?}
//   GET    /api/admin/invites      200 [{id, createdAt, expiresAt}], active ones only, newest first
//   DELETE /api/admin/invites/:id  204; 404 for an unknown id or an invite no longer active
//
// An invite is a one-time token of the auth module (7 days, single use): only its SHA-256 is stored, so the token
// and its link (APP_URL/register?inviteToken=…) are shown once, in the creation's answer. Registration checks and
// redeems it through the same module (auth-handler.ts), so a used or revoked invite registers nobody. With an
// email in the body and SMTP configured, the link is also mailed (mailedTo); a mail that fails answers 502 and
// the invite is revoked, as nobody received it.
import type { Polka } from 'polka';
import type { OneTimeTokenRecord } from '../auth/index.ts';
import { emailProblem, normalizeEmail } from './account-fields.ts';
import { ApiError, type FieldProblem, validationError } from './api-error.ts';
import { authenticateAdmin } from './bearer-auth.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { deliverLink } from './link-delivery.ts';
import type { ServerContext } from './server-context.ts';

export const INVITE_NOT_FOUND = 'Invite not found';

/** The optional address to mail the invite to, or a 400 naming every key at fault. */
function inviteEmailOf(body: Record<string, unknown>): string | undefined {
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(body)) if (key !== 'email') problems.push({ field: key, message: 'is not an invite field (email)' });
  const email = body['email'];
  const problem = email === undefined ? undefined : emailProblem(email);
  if (problem !== undefined) problems.push({ field: 'email', message: problem });
  if (problems.length > 0) throw validationError(problems);
  return email === undefined ? undefined : normalizeEmail(email as string);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An invite as the list shows it: never its token or hash. */
const inviteView = (record: OneTimeTokenRecord) => ({ id: record.id, createdAt: iso(record.createdAt), expiresAt: iso(record.expiresAt) });

export function mountInvites(app: Polka, ctx: ServerContext): void {
  app.post('/api/admin/invites', async (req, res) => {
    const admin = await authenticateAdmin(ctx, req);
    const email = inviteEmailOf(await readJsonObject(req, ctx.jsonLimit));
    const { token, record } = await ctx.oneTime.issue('invite', null, admin.id);
    const url = ctx.links.invite(token);
    let mailedTo: string | undefined;
    if (email !== undefined) {
      try {
        const returned = await deliverLink(ctx, 'invite', { email, name: '' }, url, ctx.oneTime.lifetimeMs('invite'));
        if (returned === undefined) mailedTo = email;
      } catch (err) {
        await ctx.oneTime.revoke('invite', record.id);
        throw err;
      }
    }
    sendJson(res, 201, { ...inviteView(record), token, url, ...(mailedTo === undefined ? {} : { mailedTo }) });
  });

  app.get('/api/admin/invites', async (req, res) => {
    await authenticateAdmin(ctx, req);
    sendJson(res, 200, (await ctx.oneTime.listActive('invite')).map(inviteView));
  });

  app.delete('/api/admin/invites/:id', async (req, res) => {
    await authenticateAdmin(ctx, req);
    if (!(await ctx.oneTime.revoke('invite', req.params['id']!))) throw new ApiError(404, INVITE_NOT_FOUND);
    res.writeHead(204, { 'Cache-Control': 'no-store' }).end();
  });
}
