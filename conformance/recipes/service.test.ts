// The service as a whole: GET /health, the /api prefix without a version segment, PORT and its default.
import { check } from '../harness/index.ts';
import { is2xx, shown } from './api.ts';
import { RECIPES, sharedInstance, start } from './target.ts';

check('recipes/health/endpoint/get-health-succeeds', RECIPES, async (t, c) => {
  const { http } = await sharedInstance(c);
  const res = await http.request({ path: '/health' });
  t.true(is2xx(res), `GET /health: ${shown(res)}`);
});

check('recipes/api/prefix/endpoints-under-api', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  // Public endpoints of the table answer under /api (not 404), and not at the root without it.
  for (const path of ['/api/admin/setup', '/api/recipes/public', '/api/recipes/tags']) {
    const res = await api.call('GET', path);
    t.true(is2xx(res), `GET ${path}: ${shown(res)}`);
  }
  const bare = await api.call('GET', '/admin/setup');
  t.false(is2xx(bare) && /admin/i.test(bare.text) && bare.headers['content-type']?.includes('json') === true, `GET /admin/setup (no prefix) answered like the API: ${shown(bare)}`);
});

check('recipes/versioning/fixed-prefix-no-version/no-version-segment-needed', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const res = await api.call('GET', '/api/recipes/public');
  t.true(is2xx(res), `GET /api/recipes/public (no version segment): ${shown(res)}`);
});

check('recipes/config/port-env/listens-on-port', RECIPES, async (t, c) => {
  // The harness sets PORT to the reserved port and waits for it to accept connections.
  const { http, launched } = await start(c);
  t.is(launched.port > 0, true);
  const res = await http.request({ path: '/health' });
  t.true(is2xx(res), `GET /health on PORT ${launched.port}: ${shown(res)}`);
});
