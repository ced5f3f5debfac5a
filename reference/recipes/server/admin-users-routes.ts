// The admin users endpoints (catalog recipes/admin-users/*), all behind the admin check (401 without a valid
// token, 403 for anyone but an active admin):
//
//   GET    /api/admin/users       200 [<user>], oldest account first, unpaginated
//   PATCH  /api/admin/users/:id   {role?, isActive?}  200 <user>; 400 naming other keys and values; 404 unknown id
//   DELETE /api/admin/users/:id   204; the user's recipes, their photo files and favorites go too (user-deletion.ts)
//
// A change or deletion that would leave no active admin answers 409 and changes nothing; it is judged inside the
// store update, so two admins demoting each other at once cannot both succeed. Decisions read the stored user, so
// a new role or status holds from the user's next request, with tokens issued before it.
import { leavesNoActiveAdmin } from '../auth/index.ts';
import type { DeepReadonly, User } from '../store/index.ts';
import type { Polka } from 'polka';
import { ApiError } from './api-error.ts';
import { authenticateAdmin } from './bearer-auth.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { type ServerContext, userView } from './server-context.ts';
import { type UserChange, userChangeOf } from './user-change-fields.ts';
import { deleteUser, LAST_ADMIN, USER_NOT_FOUND } from './user-deletion.ts';

const byCreation = (a: DeepReadonly<User>, b: DeepReadonly<User>) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;

/** The user after `change`, as answers show it. */
function changeUser(ctx: ServerContext, id: string, change: UserChange): Promise<ReturnType<typeof userView>> {
  return ctx.store.update((draft) => {
    if (!Object.hasOwn(draft.users, id)) throw new ApiError(404, USER_NOT_FOUND);
    if (leavesNoActiveAdmin(Object.values(draft.users), { id, ...change })) throw new ApiError(409, LAST_ADMIN);
    const user = draft.users[id]!;
    const changed = (change.role ?? user.role) !== user.role || (change.isActive ?? user.isActive) !== user.isActive;
    if (changed) {
      Object.assign(user, change);
      user.updatedAt = new Date().toISOString();
    }
    return userView(user);
  });
}

export function mountAdminUsers(app: Polka, ctx: ServerContext): void {
  app.get('/api/admin/users', async (req, res) => {
    await authenticateAdmin(ctx, req);
    sendJson(res, 200, Object.values(ctx.store.data.users).sort(byCreation).map(userView));
  });

  app.patch('/api/admin/users/:id', async (req, res) => {
    await authenticateAdmin(ctx, req);
    const change = userChangeOf(await readJsonObject(req, ctx.jsonLimit));
    sendJson(res, 200, await changeUser(ctx, req.params['id']!, change));
  });

  app.delete('/api/admin/users/:id', async (req, res) => {
    await authenticateAdmin(ctx, req);
    await deleteUser(ctx, req.params['id']!);
    res.writeHead(204, { 'Cache-Control': 'no-store' }).end();
  });
}
