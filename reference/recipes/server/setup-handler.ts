// First run (catalog recipes/setup/*): GET /api/admin/setup says whether an admin exists; POST creates the first
// admin — verified at once, answered with a login token — and is closed (409) as soon as one exists.
import type { Polka } from 'polka';
import { hashPassword } from '../auth/index.ts';
import { newAccountOf } from './account-fields.ts';
import { createUser, SETUP_DONE } from './accounts.ts';
import { ApiError } from './api-error.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { adminExists, type ServerContext, userView } from './server-context.ts';

export function mountSetup(app: Polka, ctx: ServerContext): void {
  app.get('/api/admin/setup', (_req, res) => {
    sendJson(res, 200, { adminExists: adminExists(ctx.store) });
  });

  app.post('/api/admin/setup', async (req, res) => {
    const account = newAccountOf(await readJsonObject(req, ctx.jsonLimit));
    // Checked before hashing (argon2 costs ~50 ms) and again in the write, which has the last word.
    if (adminExists(ctx.store)) throw new ApiError(409, SETUP_DONE);
    const passwordHash = await hashPassword(account.password);
    const user = await createUser(ctx, account, passwordHash, { role: 'admin', emailVerified: true, onlyIfNoAdmin: true });
    const token = await ctx.jwt.issue(user);
    sendJson(res, 201, { token, user: userView(user) });
  });
}
