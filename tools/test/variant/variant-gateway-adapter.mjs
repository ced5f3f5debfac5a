// The permitted-variant gateway's adapter (conformance/gateway/README.md, "One neutral setup, an adapter per
// target"): reads the suite's neutral setup (the reference's key set) as JSON on stdin and writes the variant's
// own config file on stdout, YAML (or JSON with --json). The variant keeps every key document 001 names
// (global.admin.bind/token, global.shutdownTimeoutSecs, sites, host, port, tls.cert/key/acme, routes,
// healthCheck, outlierDetection, rateLimit, ipFilter.deny, cache, metrics.path, workers, backlog, hotReload and
// the other named sections) and names the rest its own way (catalog gateway/config/site-key-set: "not shown"):
//
//   routes[]:          prefix, balance, upstreams[] {address, weight}, rateLimit {limit, per} (the route bucket)
//   healthCheck:       uri, every, timeout, rise, fall
//   outlierDetection:  errors5xx, ejectFor, ejectAtMost
//   retries        ->  retryPolicy {extraAttempts}
//   rateLimit:         limit, per (the site bucket)
//   cache:             ttl, capacity, store
//   basicAuth:         realm, users ["name:password", ...]
//   apiKey:            headerName, queryParam, values
//   jwtAuth:           hmacSecret, rsaPublicKey, jwks, issuer, audience, leewaySecs
//   forwardAuth:       address, timeout, authResponseHeaders
//   consumers[]:       username, keys, login ("name:password"), limit {limit, per}
//   cors:              origins, methods, headers, expose, credentials, maxAgeSecs
//   limits:            maxBody, upstreamTimeout
//   proxy:             keepHost, xForwarded
//   static:            dir, at, index, maxAgeSecs
//   logging:           format, to
//   compression:       minSize
//   upload:            at, into, maxSize, maxFiles
//
// Durations are strings with a unit ("200ms", "60s"), not milliseconds. Keys the adapter does not know are
// passed on as they are (the variant judges them).
import { stringify } from 'yaml';

const neutral = JSON.parse(await new Response(process.stdin).text());

/** A duration in milliseconds as the variant writes it. */
const duration = (ms) => (typeof ms === 'number' && ms % 1000 === 0 && ms > 0 ? `${ms / 1000}s` : typeof ms === 'number' ? `${ms}ms` : ms);

/** `object` with its keys renamed by `names` (old -> [new, convert?]); other keys kept. */
function renamed(object, names) {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
  const out = {};
  for (const [key, value] of Object.entries(object)) {
    const rename = names[key];
    if (rename === undefined) out[key] = value;
    else out[rename[0]] = rename[1] ? rename[1](value) : value;
  }
  return out;
}

function site(s) {
  const { rateLimit, routes, retries, healthCheck, outlierDetection, cache, basicAuth, apiKey, jwtAuth, forwardAuth, consumers, cors, limits, proxy, static: files, logging, compression, upload, ...rest } = s;
  const routeLimits = { ...(rateLimit?.routes ?? {}) };
  const out = { ...rest };
  if (routes !== undefined) {
    out.routes = routes.map((r) => {
      const { path, strategy, targets, ...more } = r;
      const route = { prefix: path, ...(strategy === undefined ? {} : { balance: strategy }), ...more };
      route.upstreams = (targets ?? []).map((t) => renamed(typeof t === 'string' ? { url: t } : t, { url: ['address'] }));
      const limit = routeLimits[path];
      if (limit !== undefined) {
        route.rateLimit = renamed(limit, { requests: ['limit'], windowMs: ['per', duration] });
        delete routeLimits[path];
      }
      return route;
    });
  }
  if (healthCheck !== undefined) {
    out.healthCheck = renamed(healthCheck, {
      path: ['uri'],
      intervalMs: ['every', duration],
      timeoutMs: ['timeout', duration],
      healthyThreshold: ['rise'],
      unhealthyThreshold: ['fall'],
    });
  }
  if (outlierDetection !== undefined) {
    out.outlierDetection = renamed(outlierDetection, {
      consecutive5xx: ['errors5xx'],
      baseEjectionMs: ['ejectFor', duration],
      maxEjectionMs: ['ejectAtMost', duration],
    });
  }
  if (retries !== undefined) out.retryPolicy = renamed(retries, { attempts: ['extraAttempts'] });
  if (rateLimit !== undefined) {
    const { routes: _routes, ...siteRule } = rateLimit;
    const rule = renamed(siteRule, { requests: ['limit'], windowMs: ['per', duration] });
    // Route buckets naming no route of the site stay where the variant will find (and refuse) them.
    if (Object.keys(routeLimits).length > 0) rule.routes = routeLimits;
    if (Object.keys(rule).length > 0) out.rateLimit = rule;
  }
  if (cache !== undefined) out.cache = renamed(cache, { ttlMs: ['ttl', duration], maxEntries: ['capacity'] });
  if (basicAuth !== undefined) {
    out.basicAuth = Array.isArray(basicAuth?.users) ? { ...basicAuth, users: basicAuth.users.map((u) => `${u.username}:${u.password}`) } : basicAuth;
  }
  if (apiKey !== undefined) out.apiKey = renamed(apiKey, { header: ['headerName'], query: ['queryParam'], keys: ['values'] });
  if (jwtAuth !== undefined) {
    out.jwtAuth = renamed(jwtAuth, { secret: ['hmacSecret'], publicKey: ['rsaPublicKey'], jwksFile: ['jwks'], clockToleranceSecs: ['leewaySecs'] });
  }
  if (consumers !== undefined) {
    out.consumers = Array.isArray(consumers)
      ? consumers.map((c) =>
          renamed(c, {
            name: ['username'],
            apiKeys: ['keys'],
            basicAuth: ['login', (b) => `${b.username}:${b.password}`],
            rateLimit: ['limit', (r) => renamed(r, { requests: ['limit'], windowMs: ['per', duration] })],
          }),
        )
      : consumers;
  }
  if (cors !== undefined) {
    out.cors = renamed(cors, { allowOrigins: ['origins'], allowMethods: ['methods'], allowHeaders: ['headers'], exposeHeaders: ['expose'], allowCredentials: ['credentials'] });
  }
  if (limits !== undefined) out.limits = renamed(limits, { maxBodyBytes: ['maxBody'], upstreamTimeoutMs: ['upstreamTimeout', duration] });
  if (forwardAuth !== undefined) out.forwardAuth = renamed(forwardAuth, { url: ['address'], timeoutMs: ['timeout', duration], copyHeaders: ['authResponseHeaders'] });
  if (proxy !== undefined) out.proxy = renamed(proxy, { preserveHost: ['keepHost'], forwardedHeaders: ['xForwarded'] });
  if (files !== undefined) out.static = renamed(files, { root: ['dir'], path: ['at'] });
  if (logging !== undefined) out.logging = renamed(logging, { file: ['to'] });
  if (compression !== undefined) out.compression = renamed(compression, { minBytes: ['minSize'] });
  if (upload !== undefined) out.upload = renamed(upload, { path: ['at'], dir: ['into'], maxBytes: ['maxSize'] });
  return out;
}

const config = { ...neutral, ...(Array.isArray(neutral.sites) ? { sites: neutral.sites.map(site) } : {}) };
process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(config, null, 2)}\n` : stringify(config));
