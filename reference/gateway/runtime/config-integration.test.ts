// The runtime with the real config layer: a YAML file loaded by loadConfig, reloaded, cold changes refused
// by coldChange.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { coldChange } from '../config/cold-change.ts';
import { loadConfig } from '../config/load-config.ts';
import { createGateway } from './create-gateway.ts';
import { GatewayError } from './gateway-runtime.ts';
import { ask, deadUrl, startUpstream } from './test-support.ts';

const yaml = (port: number, target: string, extra = '') => `
global:
  shutdownTimeoutSecs: 2
sites:
  - port: ${port}
    routes:
      - path: /
        targets:
          - url: "${target}"
${extra}`;

test('a YAML config is served, reloaded, and a cold change is refused naming the field', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-config-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'gateway.yaml');
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const port = Number(new URL(await deadUrl()).port);
  writeFileSync(path, yaml(port, a.url));
  const logs: string[] = [];
  const gateway = await createGateway(loadConfig(path, {}), {
    loadConfig: (p) => loadConfig(p, {}),
    coldChange,
    log: (line) => logs.push(line),
  });
  try {
    t.deepEqual(gateway.ports(), [port]);
    t.is((await ask(port, '/')).body, 'a');
    t.is(gateway.status().config_path, path);

    writeFileSync(path, yaml(port, b.url, '    tls: { acme: {} }\n'));
    t.deepEqual(await gateway.reload(), { warnings: ['tls.acme: configured but not compiled in'] });
    t.is((await ask(port, '/')).body, 'b');

    writeFileSync(path, yaml(port + 1, a.url));
    const cold = await t.throwsAsync(gateway.reload(), { instanceOf: GatewayError });
    t.is(cold?.code, 'bad-request');
    t.regex(cold?.message ?? '', /port.*restart/);

    writeFileSync(path, yaml(port, a.url).replace('- path: /', '- path: /\n        strategy: fastest'));
    const invalid = await t.throwsAsync(gateway.reload(), { instanceOf: GatewayError });
    t.is(invalid?.code, 'bad-request');
    t.regex(invalid?.message ?? '', /strategy/);
    t.is((await ask(port, '/')).body, 'b', 'the running config is kept');
  } finally {
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});
