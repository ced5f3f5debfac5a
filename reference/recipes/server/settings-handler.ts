// The application settings, admin only (catalog recipes/settings/*, recipes/admin-users/admin-refusal-status):
//
//   GET   /api/admin/settings   200 <settings> (smtpPassSet in place of smtpPass)
//   PATCH /api/admin/settings   partial {allowRegistration?, smtpHost?, smtpPort?, smtpUser?, smtpPass?, smtpFrom?}
//                               200 <settings> as GET answers them; 400 naming every key at fault, nothing changed
//
// Both answer 401 without a valid token and 403 for a non-admin. The mailer follows the stored SMTP settings
// (ServerContext.mailer rebuilds it when they differ), so a change takes effect on the next mail. Clearing smtpHost
// logs the warning of link-delivery.ts (links go in the answers from then on).
import type { Polka } from 'polka';
import { authenticateAdmin } from './bearer-auth.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { LINKS_IN_ANSWERS_WARNING, linksInAnswers } from './link-delivery.ts';
import type { ServerContext } from './server-context.ts';
import { settingsChangeOf, settingsView } from './settings-fields.ts';

export function mountSettings(app: Polka, ctx: ServerContext): void {
  app.get('/api/admin/settings', async (req, res) => {
    await authenticateAdmin(ctx, req);
    sendJson(res, 200, settingsView(ctx.store.data.settings));
  });

  app.patch('/api/admin/settings', async (req, res) => {
    await authenticateAdmin(ctx, req);
    const change = settingsChangeOf(await readJsonObject(req, ctx.jsonLimit));
    const mailedBefore = !linksInAnswers(ctx);
    const view = await ctx.store.update((draft) => {
      Object.assign(draft.settings, change);
      return settingsView(draft.settings);
    });
    if (mailedBefore && linksInAnswers(ctx)) ctx.log(LINKS_IN_ANSWERS_WARNING);
    sendJson(res, 200, view);
  });
}
