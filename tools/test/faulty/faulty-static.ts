// A deliberately faulty static/proxy server, for proving that the static suite can fail. It starts the
// reference on a private port with the same config and relays every request through a mutating front:
// each fault named in FAULTS (comma-separated) breaks one documented behaviour. Array configs and startup
// errors pass through unchanged (the faults are defined on single-site configs).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { freePorts } from '../../../conformance/harness/free-ports.ts';
import { portOpen } from '../../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../../conformance/harness/reference-targets.ts';
import { SECURITY_HEADERS } from '../../../conformance/static/fixtures.ts';
import type { Fault } from './faults.ts';



const REFERENCE = resolve(new URL('../../../.cache/reference/static.mjs', import.meta.url).pathname);
const faults = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean) as Fault[]);
const on = (f: Fault) => faults.has(f);

function runReference(args: string[]): void {
  const child = spawn(process.execPath, [REFERENCE, ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 1));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
}

function mutateHealth(body: Buffer): Buffer {
  const health = JSON.parse(body.toString()) as Record<string, unknown>;
  return Buffer.from(JSON.stringify({ ...health, status: 'OK', uptime: String(health.uptime) }));
}


/** The redirect rules with `status` set wherever a rule gives none (both forms). */
function defaultStatus(redirects: unknown, status: number): unknown {
  const withStatus = (rule: unknown): unknown =>
    typeof rule === 'object' && rule !== null && (rule as { status?: unknown }).status === undefined ? { ...rule, status } : rule;
  if (Array.isArray(redirects)) return redirects.map(withStatus);
  if (typeof redirects !== 'object' || redirects === null) return redirects;
  return Object.fromEntries(Object.entries(redirects).map(([from, to]) => [from, typeof to === 'string' ? { to, status } : withStatus(to)]));
}

/** The folder served at the site's root: the string, the array's first, or the object's `/` mount. */
function rootFolder(folders: unknown): string {
  if (typeof folders === 'string') return folders;
  if (Array.isArray(folders)) return String(folders[0]);
  const root = typeof folders === 'object' && folders !== null ? (folders as Record<string, unknown>)['/'] : undefined;
  return typeof root === 'string' ? root : '.';
}

async function main(): Promise<void> {
  // Run with --target, the runner builds no reference bundle: build it on first use.
  if (!existsSync(REFERENCE)) loadReferenceTargets(['static']);
  if (on('help-fails') && process.argv.some((a) => a === '--help' || a === '-h')) process.exit(1);
  const file = join(process.cwd(), 'server-config.json');
  const config: unknown = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  if (config === null || Array.isArray(config) || typeof config !== 'object') return runReference(process.argv.slice(2));
  const site = config as Record<string, unknown>;
  const publicPort = Number(site.port ?? process.env.PORT ?? 8000);
  // Claimed outside the ephemeral range: a port freed after listen(0) could be taken by another process first.
  const innerPort = (await freePorts(1))[0]!;
  const redirects = on('redirect-default-302') && site.redirects !== undefined ? { redirects: defaultStatus(site.redirects, 302) } : {};
  writeFileSync(join(process.cwd(), '.faulty-inner.json'), JSON.stringify({ ...site, port: innerPort, ...redirects }));
  runReference(['--config', '.faulty-inner.json']);
  const healthPath = typeof site.healthCheck === 'object' ? String((site.healthCheck as { path?: string }).path ?? '/__health__') : '/__health__';
  const customHeaders = Object.keys((site.headers as Record<string, string> | undefined) ?? {}).map((h) => h.toLowerCase());
  const folder = rootFolder(site.folders);

  const front = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const decoded = (() => {
      try {
        return decodeURIComponent(path);
      } catch {
        return path;
      }
    })();
    if (on('traversal') && decoded.includes('..')) {
      const naive = join(process.cwd(), folder, decoded);
      if (existsSync(naive)) {
        res.end(readFileSync(naive));
        return;
      }
    }
    const headers: IncomingHttpHeaders = { ...req.headers };
    if (on('unhandled-accept')) delete headers.accept;
    const upstream = request({ host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        let status = up.statusCode ?? 502;
        let body: Buffer = Buffer.concat(chunks);
        const out: IncomingHttpHeaders = { ...up.headers };
        if (on('health-body') && path === healthPath && status === 200) body = mutateHealth(body);
        if (on('redirect-status') && status === 301) status = 302;
        if (on('rate-limit') && status === 429) status = 200;
        if (on('unhandled-410') && status === 404 && site.unhandled === undefined && site.proxy === undefined) status = 410;
        if (on('drop-custom-headers')) for (const h of customHeaders) delete out[h];
        if (on('strip-response-time')) delete out['x-response-time'];
        if (on('strip-security-headers')) for (const h of SECURITY_HEADERS) delete out[h];
        if (on('strip-cors')) for (const h of Object.keys(out)) if (h.startsWith('access-control-')) delete out[h];
        if (on('no-compression') && out['content-encoding'] === 'gzip') {
          body = gunzipSync(body);
          delete out['content-encoding'];
        }
        delete out['content-length'];
        delete out['transfer-encoding'];
        res.writeHead(status, { ...out, 'content-length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    });
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  // Listen only once the reference answers, so readiness of the front means readiness of both.
  while (!(await portOpen(innerPort))) await new Promise((r) => setTimeout(r, 20));
  front.listen(publicPort, '127.0.0.1');
}

await main();
