// The command line (document 001, "Command-line shortcuts"): each shortcut run with the target's CLI (its
// description's `cli`) against a running gateway through a recording front of the admin API, so the case sees
// the admin call the command made; and the offline commands validate, fmt, init and probe on files of the
// case. A shortcut is judged by the call it made, not by its exit code or output (neither is given:
// gateway/cli/output-and-exit-codes), nor by what the gateway then did (its own clauses'); exit codes are judged
// where the document gives them (validate, probe); output only where it names it (a table).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { extname, join } from 'node:path';
import { claimForCase } from '../harness/fixed-port.ts';
import { check, type CaseContext } from '../harness/index.ts';
import { sameUrl } from './admin-client.ts';
import { type AdminRecorder, adminRecorder } from './admin-recorder.ts';
import { type CliRun, output, runCli } from './cli.ts';
import { type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { renderConfig, type GatewaySetup } from './setup.ts';
import { CLI, CONFIG_NAME, description } from './target.ts';
import { deadUpstream, sharedUpstreams, spareUrl, startUpstreams, type Upstream } from './upstream.ts';

const HOST = 'cli.test';
const ROUTES = ['/cli-add', '/cli-rm', '/cli-w', '/cli-site'] as const;

async function cliGateway(c: CaseContext): Promise<{ g: Gateway; ups: Upstream[]; label: string }> {
  const ups = await sharedUpstreams('cli', 'a', 'b', 'c', 'd');
  // The routes a command removes from keep a second target (an address nothing is sent to): whether a route may
  // lose its last target is gateway/upstreams/remove-last-target, not what the command is judged by.
  const routes = ROUTES.map((path, i) => ({ path, targets: path === '/cli-rm' || path === '/cli-site' ? [ups[i]!.url, spareUrl()] : [ups[i]!.url] }));
  const g = await sharedGateway(c, 'cli', () => ({ sites: [{ host: HOST, routes }] }));
  return { g, ups, label: `${HOST}:${g.rendered.sitePorts[0]}` };
}

/** Runs a shortcut through a recorder in front of `g`'s admin API (`--admin` the recorder, the token in
 * GATEWAY_ADMIN_TOKEN). */
async function viaRecorder(c: CaseContext, g: Gateway, args: string[], env: Record<string, string | undefined> = {}): Promise<{ run: CliRun; rec: AdminRecorder }> {
  const rec = await adminRecorder(c, g.admin.address);
  const run = await runCli(c, [...args, '--admin', rec.address], { env: { ...(g.admin.token ? { GATEWAY_ADMIN_TOKEN: g.admin.token } : {}), ...env } });
  return { run, rec };
}

const calls = (rec: AdminRecorder): string => rec.calls.map((x) => `${x.method} ${x.path} ${x.body}`).join('; ') || 'none';
const saw = (rec: AdminRecorder, method: string, path: string) => rec.calls.find((x) => x.method === method && x.path.split('?')[0] === path);

/** `text` as a JSON object, or undefined when it is none (a command's output in a format of its own). */
function jsonOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON object a recorded admin call carried ({} for none). */
const bodyOf = (call: { body: string } | undefined): Record<string, unknown> => jsonOf(call?.body || '{}') ?? {};

for (const [name, args, method, path] of [
  ['status', ['status'], 'GET', '/status'],
  ['upstreams-list', ['upstreams'], 'GET', '/upstreams'],
] as const) {
  check(`gateway/cli/${name}/calls-${method.toLowerCase()}-${path.slice(1)}`, CLI, async (t, c) => {
    const { g } = await cliGateway(c);
    const { run, rec } = await viaRecorder(c, g, [...args]);
    t.truthy(saw(rec, method, path), `${args.join(' ')}: want ${method} ${path}; the admin API got ${calls(rec)}\n${output(run)}`);
  });
}

check('gateway/cli/status-upstream-table/calls-upstreams-lists-each', CLI, async (t, c) => {
  const { g, ups } = await cliGateway(c);
  const { run, rec } = await viaRecorder(c, g, ['status', '--upstream']);
  const call = saw(rec, 'GET', '/upstreams');
  if (call === undefined) return void t.fail(`the admin API got ${calls(rec)}\n${output(run)}`);
  // The upstreams of the answer the command got: other cases of the shared gateway add and remove targets.
  const listed = bodyOf({ body: call.answer }).upstreams;
  const urls = (Array.isArray(listed) ? listed : []).map((u) => (u as { url?: unknown } | null)?.url).filter((u): u is string => typeof u === 'string');
  if (urls.length === 0) c.inconclusive(`GET /upstreams answered no upstream URLs: ${call.answer.slice(0, 300)}`);
  t.true(ups.some((u) => urls.some((url) => sameUrl(url, u.url))), `the gateway's upstreams in GET /upstreams: ${urls.join(', ')}`);
  // A row is told by its upstream: the URL as listed, normalised, or its host:port alone (the columns, and how
  // the table writes an address, are gateway/cli/status-upstream-columns); every upstream here has a port of
  // its own.
  const lines = run.stdout.split('\n');
  const forms = (url: string): string[] => {
    const parsed = URL.parse(url);
    return parsed ? [url, parsed.href, parsed.host] : [url];
  };
  const rows = urls.map((url) => lines.findIndex((line) => forms(url).some((form) => line.includes(form))));
  t.true(rows.every((r) => r >= 0), `each upstream URL of GET /upstreams (${urls.join(', ')}) in the table:\n${run.stdout}`);
  t.is(new Set(rows).size, rows.length, `one row per upstream:\n${run.stdout}`);
});

check('gateway/cli/upstreams-add/posts-route-target-weight-site', CLI, async (t, c) => {
  const { g, label } = await cliGateway(c);
  const target = spareUrl();
  const { run, rec } = await viaRecorder(c, g, ['upstreams', 'add', '--route', '/cli-add', '--target', target, '--weight', '3', '--site', label]);
  const call = saw(rec, 'POST', '/upstreams/add');
  t.truthy(call, `the admin API got ${calls(rec)}\n${output(run)}`);
  const body = bodyOf(call);
  t.is(body.route, '/cli-add');
  t.true(sameUrl(body.target, target), `target ${JSON.stringify(body.target)}`);
  t.is(body.weight, 3);
  t.is(body.site, label);
});

check('gateway/cli/upstreams-remove/posts-route-target', CLI, async (t, c) => {
  const { g, ups } = await cliGateway(c);
  const { run, rec } = await viaRecorder(c, g, ['upstreams', 'remove', '--route', '/cli-rm', '--target', ups[1]!.url]);
  const call = saw(rec, 'POST', '/upstreams/remove');
  t.truthy(call, `the admin API got ${calls(rec)}\n${output(run)}`);
  const body = bodyOf(call);
  t.is(body.route, '/cli-rm');
  t.true(sameUrl(body.target, ups[1]!.url), `target ${JSON.stringify(body.target)}`);
});

check('gateway/cli/upstreams-weight/posts-route-target-weight', CLI, async (t, c) => {
  const { g, ups } = await cliGateway(c);
  const { run, rec } = await viaRecorder(c, g, ['upstreams', 'weight', '--route', '/cli-w', '--target', ups[2]!.url, '--weight', '4']);
  const call = saw(rec, 'POST', '/upstreams/weight');
  t.truthy(call, `the admin API got ${calls(rec)}\n${output(run)}`);
  const body = bodyOf(call);
  t.is(body.route, '/cli-w');
  t.true(sameUrl(body.target, ups[2]!.url), `target ${JSON.stringify(body.target)}`);
  t.is(body.weight, 4);
});

// What the reload and the shutdown then do is gateway/reload/* and gateway/shutdown/*: the command is judged by
// its call.
check('gateway/cli/reload/posts-reload', CLI, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/x', targets: [a!.url] }] }] });
  const { run, rec } = await viaRecorder(c, g, ['reload']);
  t.truthy(saw(rec, 'POST', '/reload'), `the admin API got ${calls(rec)}\n${output(run)}`);
});

check('gateway/cli/shutdown/posts-shutdown', CLI, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/x', targets: [a!.url] }] }] });
  const { run, rec } = await viaRecorder(c, g, ['shutdown']);
  t.truthy(saw(rec, 'POST', '/shutdown'), `the admin API got ${calls(rec)}\n${output(run)}`);
});

check('gateway/cli/admin-flag/address-from-flag', CLI, async (t, c) => {
  const { g } = await cliGateway(c);
  // GATEWAY_ADMIN unset: which of the two wins is gateway/cli/address-precedence-and-form.
  const { run, rec } = await viaRecorder(c, g, ['status']);
  t.truthy(saw(rec, 'GET', '/status'), `--admin ${rec.address}: the recorder got ${calls(rec)}\n${output(run)}`);
});

check('gateway/cli/admin-env/address-from-environment', CLI, async (t, c) => {
  const { g } = await cliGateway(c);
  const rec = await adminRecorder(c, g.admin.address);
  const run = await runCli(c, ['status'], { env: { GATEWAY_ADMIN: rec.address, GATEWAY_ADMIN_TOKEN: g.admin.token } });
  t.truthy(saw(rec, 'GET', '/status'), `GATEWAY_ADMIN=${rec.address}: the recorder got ${calls(rec)}\n${output(run)}`);
});

check('gateway/cli/token-env/bearer-from-environment', CLI, async (t, c) => {
  const { g } = await cliGateway(c);
  const { run, rec } = await viaRecorder(c, g, ['status']);
  const call = saw(rec, 'GET', '/status');
  t.is(call?.headers.authorization, `Bearer ${g.admin.token}`, `the call the recorder got: ${calls(rec)}\n${output(run)}`);
});

const DEFAULT_ADMIN_PORT = 2019;

check('gateway/cli/default-admin-address/127-0-0-1-2019', CLI, async (t, c) => {
  const { g } = await cliGateway(c);
  if (!(await claimForCase(c, DEFAULT_ADMIN_PORT))) c.inconclusive(`the harness could not have port ${DEFAULT_ADMIN_PORT}: other cases held it`);
  const rec = await adminRecorder(c, g.admin.address, DEFAULT_ADMIN_PORT).catch((err: Error) =>
    c.inconclusive(`the harness could not listen on 127.0.0.1:${DEFAULT_ADMIN_PORT} in the place of the admin API: ${err.message}`),
  );
  const run = await runCli(c, ['status'], { env: { GATEWAY_ADMIN_TOKEN: g.admin.token } });
  t.truthy(saw(rec, 'GET', '/status'), `no --admin, no GATEWAY_ADMIN: 127.0.0.1:${DEFAULT_ADMIN_PORT} got ${calls(rec)}\n${output(run)}`);
});

// ---------------------------------------------------------------- offline commands

/** The config text of `setup` in the target's format, on fixed ports (nothing is started). */
function configText(setup: GatewaySetup, name = CONFIG_NAME): Promise<string> {
  const sites = setup.sites.map((s, i) => ({ ...s, port: s.port ?? 18_080 + i, ...(s.routes ? { routes: s.routes.map((r) => ({ ...r, targets: r.targets.map((x) => (typeof x === 'string' ? { url: x } : x)) })) } : {}) }));
  const global: Record<string, unknown> = { ...setup.global };
  if (setup.admin !== false) global.admin = { bind: '127.0.0.1:12019', ...(setup.admin?.token ? { token: setup.admin.token } : {}) };
  return renderConfig({ ...(Object.keys(global).length > 0 ? { global } : {}), ...setup.top, sites }, name);
}

const VALID: GatewaySetup = { sites: [{ routes: [{ path: '/', targets: ['http://127.0.0.1:18090'] }] }], admin: { token: 'offline-token' } };
/** `global.admin` without its required `bind`. */
const INVALID: GatewaySetup = { sites: VALID.sites, admin: false, global: { admin: { token: 'offline-token' } } };
const OTHER_NAME = `elsewhere${extname(CONFIG_NAME) || '.yaml'}`;

check('gateway/cli/validate-exit-codes/valid-0-invalid-1', CLI, async (t, c) => {
  const valid = await runCli(c, ['validate', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText(VALID) } });
  t.is(valid.code, 0, `a valid file: ${output(valid)}`);
  const invalid = await runCli(c, ['validate', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText(INVALID) } });
  t.is(invalid.code, 1, `global.admin without bind: ${output(invalid)}`);
});

check('gateway/cli/config-flag/file-named-by-c', CLI, async (t, c) => {
  // Only the named file exists: the command must read it, not a default.
  const valid = await runCli(c, ['validate', '-c', OTHER_NAME], { files: { [OTHER_NAME]: await configText(VALID, OTHER_NAME) } });
  t.is(valid.code, 0, `validate -c ${OTHER_NAME} (valid): ${output(valid)}`);
  const invalid = await runCli(c, ['validate', '-c', OTHER_NAME], { files: { [OTHER_NAME]: await configText(INVALID, OTHER_NAME), [CONFIG_NAME]: await configText(VALID) } });
  t.is(invalid.code, 1, `validate -c ${OTHER_NAME} (invalid, beside a valid ${CONFIG_NAME}): ${output(invalid)}`);
});

check('gateway/cli/fmt/formats-with-and-without-write', CLI, async (t, c) => {
  const text = await configText(VALID);
  // The file after `fmt --write` is judged by `validate`: one that does not pass the file before is
  // gateway/cli/validate-exit-codes' departure, not fmt's.
  const before = await runCli(c, ['validate', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: text } });
  if (before.code !== 0) c.inconclusive(`validate does not pass the file fmt is given (clause gateway/cli/validate-exit-codes): ${output(before)}`);
  const plain = await runCli(c, ['fmt', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: text } });
  t.is(plain.code, 0, `fmt -c: ${output(plain)}`);
  const write = await runCli(c, ['fmt', '-c', CONFIG_NAME, '--write'], { files: { [CONFIG_NAME]: text } });
  t.is(write.code, 0, `fmt -c --write: ${output(write)}`);
  const after = await runCli(c, ['validate', '-c', CONFIG_NAME], { dir: write.dir });
  t.is(after.code, 0, `the file after fmt --write still validates: ${output(after)}\n--- file ---\n${readFileSync(join(write.dir, CONFIG_NAME), 'utf8')}`);
});

check('gateway/cli/init/yes-writes-output-file', CLI, async (t, c) => {
  const run = await runCli(c, ['init', '--yes', '-o', OTHER_NAME], { stdin: '' });
  t.is(run.code, 0, output(run));
  const path = join(run.dir, OTHER_NAME);
  t.true(existsSync(path) && statSync(path).size > 0, `init --yes -o ${OTHER_NAME} wrote no file: ${output(run)}`);
});

check('gateway/cli/probe-exit-codes/reachable-0-unreachable-1', CLI, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const dead = await deadUpstream(c);
  const live = await configText({ sites: [{ routes: [{ path: '/', targets: [up!.url] }] }], admin: false });
  const ok = await runCli(c, ['probe', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: live } });
  t.is(ok.code, 0, `every upstream reachable: ${output(ok)}`);
  const some = await configText({ sites: [{ routes: [{ path: '/', targets: [up!.url, dead] }] }], admin: false });
  const bad = await runCli(c, ['probe', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: some } });
  t.is(bad.code, 1, `one upstream unreachable: ${output(bad)}`);
});

check('gateway/versioning/semver-binaries/version-reported', CLI, async (t, c) => {
  const reports = (r: CliRun) => r.code === 0 && /\b\d+\.\d+\.\d+\b/.test(r.stdout + r.stderr);
  // How a binary reports its version is gateway/versioning/version-command: the description's versionArgs, else
  // the two usual forms.
  const tries = description.versionArgs ? [description.versionArgs] : [['--version'], ['version']];
  const runs: CliRun[] = [];
  for (const args of tries) {
    runs.push(await runCli(c, args));
    if (reports(runs.at(-1)!)) break;
  }
  t.true(
    runs.some(reports),
    `${tries.map((a) => a.join(' ')).join(' nor ')} reports a major.minor.patch version:\n${runs.map(output).join('\n')}`,
  );
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/cli/output-and-exit-codes/json-0-errors-1-usage-2', CLI, async (t, c) => {
  const { g } = await cliGateway(c);
  const ok = await runCli(c, ['status', '--admin', g.admin.address], { env: { GATEWAY_ADMIN_TOKEN: g.admin.token } });
  t.is(ok.code, 0);
  // The reference prints the answer's JSON; another CLI may print text, which this (informational) check reports.
  t.is(jsonOf(ok.stdout)?.status, 'running', `stdout of status: ${ok.stdout.slice(0, 400)}`);
  const denied = await runCli(c, ['status', '--admin', g.admin.address], { env: { GATEWAY_ADMIN_TOKEN: 'wrong' } });
  t.is(denied.code, 1, output(denied));
  t.regex(denied.stderr, /^error: 401/m);
  const unreachable = await runCli(c, ['status', '--admin', '127.0.0.1:9']);
  t.is(unreachable.code, 1, output(unreachable));
  t.regex(unreachable.stderr, /error:.*127\.0\.0\.1:9/);
  const usage = await runCli(c, ['no-such-command']);
  t.is(usage.code, 2, output(usage));
});

check('gateway/cli/status-upstream-columns/reference-header', CLI, async (t, c) => {
  const { g } = await cliGateway(c);
  const run = await runCli(c, ['status', '--upstream', '--admin', g.admin.address], { env: { GATEWAY_ADMIN_TOKEN: g.admin.token } });
  t.deepEqual(run.stdout.split('\n')[0]?.trim().split(/\s+/), ['URL', 'STATE', 'HEALTHY', 'LATENCY_MS', 'ACTIVE', '5XX', 'EJECTED']);
});

check('gateway/cli/validate-output/line-or-error-field', CLI, async (t, c) => {
  const valid = await runCli(c, ['validate', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText(VALID) } });
  t.is(valid.stdout.trim().split('\n').length, 1, output(valid));
  const invalid = await runCli(c, ['validate', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText(INVALID) } });
  t.regex(invalid.stderr, /^error: global\.admin\.bind: /m);
});

check('gateway/cli/fmt-behaviour/stdout-or-in-place', CLI, async (t, c) => {
  const messy = `sites:\n    -   port: 18080\n        routes:\n          - {path: /, targets: [{url: "http://127.0.0.1:18090"}]}\n`;
  const plain = await runCli(c, ['fmt', '-c', 'gateway.yaml'], { files: { 'gateway.yaml': messy } });
  t.is(readFileSync(join(plain.dir, 'gateway.yaml'), 'utf8'), messy, 'without --write the file is untouched');
  t.regex(plain.stdout, /port: 18080/);
  const write = await runCli(c, ['fmt', '-c', 'gateway.yaml', '--write'], { files: { 'gateway.yaml': messy } });
  t.not(readFileSync(join(write.dir, 'gateway.yaml'), 'utf8'), messy, 'with --write the file is rewritten');
  const broken = await runCli(c, ['fmt', '-c', 'gateway.yaml', '--write'], { files: { 'gateway.yaml': 'sites: [\n' } });
  t.is(broken.code, 1);
  t.is(readFileSync(join(broken.dir, 'gateway.yaml'), 'utf8'), 'sites: [\n');
});

check('gateway/cli/init-behaviour/default-name-asks-before-overwrite', CLI, async (t, c) => {
  const fresh = await runCli(c, ['init', '--yes'], { stdin: '' });
  t.true(existsSync(join(fresh.dir, 'gateway.yaml')), output(fresh));
  const valid = await runCli(c, ['validate'], { dir: fresh.dir });
  t.is(valid.code, 0, output(valid));
  const kept = await runCli(c, ['init'], { files: { 'gateway.yaml': 'keep: me\n' }, stdin: 'n\nn\nn\nn\nn\nn\nn\nn\n' });
  t.is(readFileSync(join(kept.dir, 'gateway.yaml'), 'utf8'), 'keep: me\n', output(kept));
});

check('gateway/cli/probe-reachability/line-per-upstream', CLI, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const dead = await deadUpstream(c);
  const run = await runCli(c, ['probe', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText({ sites: [{ routes: [{ path: '/', targets: [up!.url, dead] }] }], admin: false }) } });
  const lines = run.stdout.trim().split('\n');
  t.is(lines.length, 2, run.stdout);
  t.true(lines.some((l) => l.includes(up!.url.replace('http://', '')) && /\bok\b/.test(l)), run.stdout);
});

check('gateway/cli/run-server/invalid-config-exit-1', CLI, async (t, c) => {
  const run = await runCli(c, ['run', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText(INVALID) } });
  t.is(run.code, 1, output(run));
  t.regex(run.stderr, /^error: global\.admin\.bind/m);
});

check('gateway/cli/address-precedence-and-form/flag-beats-env-url-form', CLI, async (t, c) => {
  const { g } = await cliGateway(c);
  const flag = await adminRecorder(c, g.admin.address);
  const env = await adminRecorder(c, g.admin.address);
  const run = await runCli(c, ['status', '--admin', `http://${flag.address}`], { env: { GATEWAY_ADMIN: env.address, GATEWAY_ADMIN_TOKEN: g.admin.token } });
  t.is(run.code, 0, output(run));
  t.is(flag.calls.length, 1, '--admin (as a URL) was used');
  t.is(env.calls.length, 0, 'GATEWAY_ADMIN was not');
});

check('gateway/cli/site-for-remove-and-weight/site-passed', CLI, async (t, c) => {
  const { g, ups, label } = await cliGateway(c);
  const { rec } = await viaRecorder(c, g, ['upstreams', 'weight', '--route', '/cli-site', '--target', ups[3]!.url, '--weight', '2', '--site', label]);
  t.is(bodyOf(saw(rec, 'POST', '/upstreams/weight')).site, label);
  const removed = await viaRecorder(c, g, ['upstreams', 'remove', '--route', '/cli-site', '--target', ups[3]!.url, '--site', label]);
  t.is(bodyOf(saw(removed.rec, 'POST', '/upstreams/remove')).site, label);
});

check('gateway/config/default-file-name/gateway-yaml', CLI, async (t, c) => {
  const run = await runCli(c, ['validate'], { files: { 'gateway.yaml': await configText(INVALID, 'gateway.yaml') } });
  t.is(run.code, 1, `validate without -c reads gateway.yaml (invalid here): ${output(run)}`);
});

check('gateway/versioning/version-command/bare-semver', CLI, async (t, c) => {
  for (const args of [['--version'], ['version']]) {
    const run = await runCli(c, args);
    t.is(run.code, 0);
    t.regex(run.stdout, /^\d+\.\d+\.\d+\n?$/);
  }
});

check('gateway/config/format-detection/json-extension-json-else-yaml', CLI, async (t, c) => {
  // Block-style YAML whatever the adapter writes (an adapter may write JSON for any name).
  const yamlText = stringify(parse(await configText(VALID, 'gateway.yaml')));
  const asJson = await runCli(c, ['validate', '-c', 'gw.json'], { files: { 'gw.json': yamlText } });
  t.is(asJson.code, 1, `YAML text in a .json file: ${output(asJson)}`);
  const jsonText = JSON.stringify(parse(yamlText));
  const asYaml = await runCli(c, ['validate', '-c', 'gw.conf'], { files: { 'gw.conf': jsonText } });
  t.is(asYaml.code, 0, `JSON text (valid YAML) in a .conf file: ${output(asYaml)}`);
});

check('gateway/config/admin-bind-missing-invalid/names-bind', CLI, async (t, c) => {
  const malformed: GatewaySetup = { sites: VALID.sites, admin: false, global: { admin: { bind: 'localhost', token: 'offline-token' } } };
  const run = await runCli(c, ['validate', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText(malformed) } });
  t.is(run.code, 1, output(run));
  t.regex(run.stderr, /global\.admin\.bind/);
});

check('gateway/config/site-key-set/unknown-key-named', CLI, async (t, c) => {
  const unknown: GatewaySetup = { ...VALID, sites: [{ ...VALID.sites[0]!, bogusSection: { a: 1 } }] };
  // The adapter's text under the name the description gives it: its format is the target's, not the reference's.
  const run = await runCli(c, ['validate', '-c', CONFIG_NAME], { files: { [CONFIG_NAME]: await configText(unknown) } });
  t.is(run.code, 1, output(run));
  t.regex(run.stderr, /bogusSection/);
});

check('gateway/auth/loopback-bind/init-binds-loopback', CLI, async (t, c) => {
  const run = await runCli(c, ['init', '--yes', '-o', OTHER_NAME], { stdin: '' });
  const text = existsSync(join(run.dir, OTHER_NAME)) ? readFileSync(join(run.dir, OTHER_NAME), 'utf8') : '';
  t.regex(text, /(127\.0\.0\.1|\[::1\]|localhost):\d+/, `the admin bind init writes:\n${text}`);
  t.notRegex(text, /(0\.0\.0\.0|\[::\]):\d+/);
});
