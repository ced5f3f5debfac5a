// Bounds the document leaves open (catalog recipes/limits/*): the reference's choices, each informational.
// A recipe whose fields are each within the field limits but take more than 64 KiB together is refused with
// 413 and not kept; forgot-password answers 429 past three calls for one address.
import { check } from '../harness/index.ts';
import { is2xx, newEmail, shown } from './api.ts';
import { RECIPES, sharedInstance } from './target.ts';

check('recipes/limits/recipe-bytes/over-64-kib-refused-413', RECIPES, async (t, c) => {
  const inst = await sharedInstance(c, 'recipes');
  const owner = await inst.api.user('bulky');
  // 20 steps of 4,000 characters: each within recipes/limits/recipe-size, about 80 KB together.
  const title = `Bulky ${newEmail('r')}`;
  const steps = Array.from({ length: 20 }, (_, i) => ({ order: i + 1, text: `${i} ${'stir slowly '.repeat(333)}` }));
  const res = await inst.api.call('POST', '/api/recipes', { token: owner.token, json: { title, steps } });
  t.is(res.status, 413, shown(res));
  const mine = await c.need('GET /api/recipes?q=Bulky as the owner', () => inst.api.call('GET', '/api/recipes', { token: owner.token, query: { q: title } }));
  t.false(is2xx(res) || mine.text.includes(title), `the recipe was kept: ${shown(mine)}`);
});

check('recipes/limits/rate-limiting/forgot-password-three-per-address', RECIPES, async (t, c) => {
  const inst = await sharedInstance(c, 'recipes');
  const email = newEmail('limited');
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await c.need(`POST /api/auth/forgot-password #${i + 1}`, () => inst.api.call('POST', '/api/auth/forgot-password', { json: { email } }));
    statuses.push(res.status);
  }
  t.true(statuses.slice(0, 3).every((s) => s >= 200 && s < 300), `the first three: ${statuses}`);
  t.is(statuses[3], 429, `the fourth for one address: ${statuses}`);
});
