import { connect } from 'node:net';
import test from 'ava';
import { ask, config, route, site, startGateway, startUpstream, until } from './test-support.ts';

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

test('shutdown stops accepting, lets requests under way finish, then resolves', async (t) => {
  const held: Array<() => void> = [];
  const slow = await startUpstream('slow', (_req, res) => held.push(() => res.end('done')));
  const { gateway, port } = await startGateway(config([site({ routes: [route('/', [slow.url])] })]));
  try {
    const pending = ask(port, '/');
    await until(() => held.length === 1, 3000, 'the request to reach the upstream');
    let finished = false;
    const closing = gateway.shutdown().then(() => {
      finished = true;
    });
    await until(() => gateway.status().inflight === 1);
    t.true(await refused(port), 'no new connections');
    t.false(finished, 'waits for the request under way');
    held[0]!();
    t.is((await pending).body, 'done');
    await closing;
    t.true(finished);
  } finally {
    for (const release of held) release();
    await gateway.shutdown();
    await slow.close();
  }
});

test('shutdown waits no longer than shutdownTimeoutSecs, then cuts what is left', async (t) => {
  const hang = await startUpstream('hang', () => {});
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [hang.url])] })], { global: { admin: undefined, shutdownTimeoutSecs: 1, redis: undefined } }),
  );
  try {
    const pending = ask(port, '/').then(
      () => 'answered',
      () => 'cut',
    );
    await until(() => hang.hits.length === 1, 3000, 'the request to reach the upstream');
    const started = Date.now();
    await gateway.shutdown();
    const took = Date.now() - started;
    t.true(took >= 950 && took < 2500, `took ${took} ms`);
    t.is(await pending, 'cut');
  } finally {
    await hang.close();
  }
});

test('an idle gateway shuts down at once', async (t) => {
  const { gateway, port } = await startGateway(config([site({ routes: [] })]));
  t.is((await ask(port, '/__health__')).status, 200);
  const started = Date.now();
  await gateway.shutdown();
  t.true(Date.now() - started < 500);
  t.true(await refused(port));
});
