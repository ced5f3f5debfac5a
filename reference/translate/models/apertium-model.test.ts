// Real Apertium (Debian `apertium` + `apertium-eng-spa`): one kept-alive pipeline translates batches.
import test from 'ava';
import { ApertiumModel } from './apertium-model.ts';
import { escapeForApertium, unescapeFromApertium } from './apertium-process.ts';

test('stream escaping round-trips reserved characters', (t) => {
  const text = 'a [b] $c^ d\\e /f @g <h> {i}';
  t.is(unescapeFromApertium(escapeForApertium(text)), text);
});

test('English to Spanish through one pipeline, in order, reserved characters intact', async (t) => {
  const model = new ApertiumModel('apertium', { modes: '/usr/share/apertium/modes', pairs: undefined });
  t.teardown(() => model.stop());
  const pair = { source: model.toNative('en-GB'), target: model.toNative('es') };
  t.deepEqual(pair, { source: 'eng', target: 'spa' });
  model.checkPair(pair);
  model.checkFiles(pair);
  const out = await model.translate(['Hello world', 'The house is big.', 'Price: $5 [net]'], pair);
  t.is(out.length, 3);
  t.regex(out[0]!, /^Hola\b/);
  t.regex(out[1]!, /casa/);
  t.regex(out[2]!, /^Precio: \$5 \[\p{L}+\]$/u);
});

test('a pair the modes do not offer is INVALID_ARGUMENT; a missing mode file is INTERNAL', (t) => {
  const model = new ApertiumModel('gone', { modes: '/nonexistent/modes', pairs: ['eng-spa'] });
  t.throws(() => model.checkPair({ source: 'eng', target: 'fra' }), { message: /target_language "fra"/ });
  const error = t.throws(() => model.checkFiles({ source: 'eng', target: 'spa' }));
  t.is((error as { code?: string }).code, 'INTERNAL');
});
