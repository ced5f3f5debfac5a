// The HTTP load of the recipes-api benchmark (api.ts), run as its own process so it can be pinned to the load's
// core beside the server's. Prints one JSON object on stdout.
//
//   node api-client.mjs latency '{"origin", "token", "path", "warmup", "count"}'
//     one keep-alive connection, requests one after the other: {p50, p99, mean} in ms over `count` answers after
//     `warmup` answers, and `faults` (answers other than 200, and socket errors).
//   node api-client.mjs patch '{"origin", "token", "clients": [[recipe id, ...], ...], "seconds"}'
//     one keep-alive connection per client, each PATCHing its own recipes in turn for `seconds`: {rate} acknowledged
//     (200) writes per second, and `faults`.
import http from 'node:http';

const [mode, json] = process.argv.slice(2);
const config = JSON.parse(json ?? '{}');
const agent = new http.Agent({ keepAlive: true, maxSockets: mode === 'patch' ? config.clients.length : 1 });

/** The status of one request, once its whole answer is read; 0 for a socket error. */
function request(method, path, body) {
  const headers = { authorization: `Bearer ${config.token}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve) => {
    const req = http.request(`${config.origin}${path}`, { method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function latency() {
  let faults = 0;
  for (let i = 0; i < config.warmup; i++) if ((await request('GET', config.path)) !== 200) faults++;
  const ms = [];
  for (let i = 0; i < config.count; i++) {
    const started = performance.now();
    const status = await request('GET', config.path);
    ms.push(performance.now() - started);
    if (status !== 200) faults++;
  }
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
  return { p50: at(0.5), p99: at(0.99), mean: ms.reduce((a, b) => a + b, 0) / ms.length, faults };
}

async function patch() {
  const until = performance.now() + config.seconds * 1000;
  const started = performance.now();
  let acknowledged = 0;
  let faults = 0;
  await Promise.all(
    config.clients.map(async (ids, client) => {
      for (let n = 0; performance.now() < until; n++) {
        const id = ids[n % ids.length];
        const body = JSON.stringify({
          servings: 1 + (n % 12),
          description: `Edited by client ${client}, change ${n}: the amounts are for ${1 + (n % 12)} servings now.`,
        });
        if ((await request('PATCH', `/api/recipes/${encodeURIComponent(id)}`, body)) === 200) acknowledged++;
        else faults++;
      }
    }),
  );
  return { rate: acknowledged / ((performance.now() - started) / 1000), faults };
}

const run = { latency, patch }[mode];
if (!run) {
  process.stderr.write(`usage: node api-client.mjs latency|patch '<json>'\n`);
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(await run())}\n`);
agent.destroy();
