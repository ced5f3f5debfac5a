// The lifetime rules on a model whose load and release are counted: one load for concurrent first calls,
// release after the TTL without use, never during a call, a failed load retried by the next call.
import test from 'ava';
import { ModelLifetime } from './model-lifetime.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function counted(ttlMs: number, failFirst = false) {
  const log: string[] = [];
  let loads = 0;
  const model = new ModelLifetime({
    kind: 'tts',
    key: 'en',
    ttlMs,
    log: (line) => log.push(line),
    load: async () => {
      loads++;
      await sleep(20);
      if (failFirst && loads === 1) throw new Error('model file missing');
      return { release: async () => {} };
    },
  });
  return { model, log, loads: () => loads };
}

test('concurrent first calls share one load; nothing is loaded before', async (t) => {
  const { model, log, loads } = counted(1000);
  t.false(model.loaded);
  await Promise.all([1, 2, 3].map(() => model.use(async () => sleep(5))));
  t.is(loads(), 1);
  t.deepEqual(log, ['model loaded: tts en']);
  await model.close();
});

test('released after the TTL without use, loaded again by the next call', async (t) => {
  const { model, log } = counted(100);
  await model.use(async () => {});
  await sleep(50);
  t.true(model.loaded, 'kept before the TTL');
  await sleep(150);
  t.false(model.loaded);
  await model.use(async () => {});
  t.deepEqual(log, ['model loaded: tts en', 'model unloaded: tts en', 'model loaded: tts en']);
  await model.close();
});

test('never released while a call uses it, however long the call', async (t) => {
  const { model, log } = counted(50);
  await model.use(async () => {});
  await model.use(async () => sleep(200));
  t.deepEqual(log, ['model loaded: tts en']);
  await sleep(120);
  t.deepEqual(log, ['model loaded: tts en', 'model unloaded: tts en']);
});

test('a failed load leaves the model unloaded and the next call tries again', async (t) => {
  const { model, log, loads } = counted(1000, true);
  await t.throwsAsync(model.use(async () => {}), { message: 'model file missing' });
  t.false(model.loaded);
  await model.use(async () => {});
  t.is(loads(), 2);
  t.deepEqual(log, ['model loaded: tts en']);
  await model.close();
});
