// The gateway adapter skeleton `conform init --surface gateway` writes beside the description: a script with
// no dependency (it runs from the user's folder, where this package's modules are not found), the identity
// mapping to start from.

export const GATEWAY_ADAPTER_NAME = 'gateway-adapter.mjs';

/** The adapter's text; `configName` is the file name the description gives the config. */
export function gatewayAdapterTemplate(configName: string): string {
  return `#!/usr/bin/env node
// Gateway adapter, written by \`conform init --surface gateway\`: the gateway suite runs it (the description's
// \`adapter\` key) once for every config file a case needs, with the case's setup as JSON on stdin, and writes
// what it prints on stdout to ${configName} (the description's \`configName\`) in the target's folder.
//
// The setup on stdin is the suite's neutral form, the reference gateway's key set. Every key, what it means and
// its units are in conformance/gateway/neutral-setup.schema.json of the conformance package (durations in
// milliseconds, keys ending in Ms; a section absent means the feature is off), with an example in
// conformance/gateway/README.md, "One neutral setup, an adapter per target".
//
// As written it is the identity mapping: the neutral form itself, as JSON (JSON is YAML too). Change
// \`toTarget\` to write your gateway's own keys:
// - rename a key where it sits, e.g. each route's \`path\` to \`prefix\`:
//     site.routes = site.routes?.map(({ path, ...route }) => ({ prefix: path, ...route }));
// - convert units, e.g. milliseconds to "2s": \`\${ms / 1000}s\`;
// - for a YAML file, print it with a YAML library installed in this folder (npm install yaml).
// A setup your gateway cannot stage: print why on stderr and exit non-zero (exit 2 below); the case then ends
// as error with that text, not as a failure of the gateway.

/** The target's config for one neutral setup (global keys, then each site). */
function toTarget(neutral) {
  const { sites, ...global } = neutral;
  return { ...global, sites: Array.isArray(sites) ? sites.map(toSite) : sites };
}

/** One site (port, host, routes and its feature sections) in the target's keys. */
function toSite(site) {
  // e.g. const { routes, ...rest } = site;
  //      return { ...rest, locations: (routes ?? []).map((r) => ({ prefix: r.path, backends: r.targets })) };
  return site;
}

let neutral;
try {
  neutral = JSON.parse(await new Response(process.stdin).text());
} catch (err) {
  process.stderr.write(\`the setup on stdin is not JSON: \${err.message}\\n\`);
  process.exit(2);
}
process.stdout.write(\`\${JSON.stringify(toTarget(neutral), null, 2)}\\n\`);
`;
}
