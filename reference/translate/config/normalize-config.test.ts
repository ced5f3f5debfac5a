import test from 'ava';
import { ConfigError } from './config-error.ts';
import { loadRawConfig } from './load-config.ts';
import { normalizeConfig } from './normalize-config.ts';

const models = { a: { adapter: 'pseudo' }, b: { adapter: 'apertium', pairs: ['eng-spa'] } };

test('environment overrides: `__` for `:`, JSON values, null removes a key', (t) => {
  const raw = loadRawConfig(undefined, {
    Translation__AutoDetect: '{"type":"heuristic"}',
    Translation__Models__r__adapter: 'redirect',
    Translation__Models__r__address: '127.0.0.1:5101',
    AllowedModels: '["pseudo","r"]',
    ModelTtlMinutes: '0.05',
    Translation__DefaultModel: 'null',
    UNRELATED__KEY: 'x',
  });
  const config = normalizeConfig(raw);
  t.deepEqual(config.autoDetect, { type: 'heuristic' }); // the embedded default's is fastText
  t.deepEqual(config.models.get('r'), { adapter: 'redirect', address: '127.0.0.1:5101', model: '' });
  t.deepEqual(config.allowedModels, ['pseudo', 'r']);
  t.is(config.defaultModel, 'pseudo'); // first allowed once DefaultModel is removed
  t.is(config.modelTtlMinutes, 0.05);
  t.false('UNRELATED' in raw);
});

test('without AllowedModels every defined model is allowed', (t) => {
  const config = normalizeConfig({ Translation: { Models: models } });
  t.deepEqual(config.allowedModels, ['a', 'b']);
  t.is(config.defaultModel, 'a');
});

const bad: [unknown, string][] = [
  [{ Translation: 'x' }, 'Translation'],
  [{ Translation: {} }, 'Translation:Models'],
  [{ Translation: { Models: {} } }, 'Translation:Models'],
  [{ Translation: { Models: { a: { adapter: 'gpt' } } } }, 'Translation:Models:a:adapter'],
  [{ Translation: { Models: { a: { adapter: 'redirect', address: 'nowhere' } } } }, 'Translation:Models:a:address'],
  [{ Translation: { Models: { a: { adapter: 'apertium', pairs: ['english'] } } } }, 'Translation:Models:a:pairs'],
  [{ Translation: { Models: models, AutoDetect: { type: 'cld3' } } }, 'Translation:AutoDetect:type'],
  [{ Translation: { Models: models, DefaultModel: 'zz' } }, 'Translation:DefaultModel'],
  [{ Translation: { Models: models, DefaultModel: 'b' }, AllowedModels: ['a'] }, 'Translation:DefaultModel'],
  [{ Translation: { Models: models }, AllowedModels: ['a', 'zz'] }, 'AllowedModels'],
  [{ Translation: { Models: models }, AllowedModels: 'a' }, 'AllowedModels'],
  [{ Translation: { Models: models }, AllowedModels: [] }, 'AllowedModels'],
  [{ Translation: { Models: models }, ModelTtlMinutes: 0 }, 'ModelTtlMinutes'],
  [{ Translation: { Models: models }, ModelTtlMinutes: '10' }, 'ModelTtlMinutes'],
  [{ Translation: { Models: models, AudioToText: { engine: 'x' } } }, 'Translation:AudioToText:engine'],
  [{ Translation: { Models: models, TextToAudio: { en: { engine: 'festival' } } } }, 'Translation:TextToAudio:en:engine'],
  [{ Translation: { Models: models, TextToAudio: { en: { engine: 'piper' } } } }, 'Translation:TextToAudio:en:model'],
  [{ Translation: { Models: { m: { adapter: 'onnx-seq2seq', path: 'x', pairs: ['english-spanish'] } } } }, 'Translation:Models:m:pairs'],
  [{ Translation: { Models: { m: { adapter: 'onnx-seq2seq', pairs: ['en-es'] } } } }, 'Translation:Models:m:path'],
  [{ Translation: { Models: { m: { adapter: 'onnx-seq2seq', path: 'x', pairs: ['en-es'], languageTokens: { en: 'eng_Latn' } } } } }, 'Translation:Models:m:languageTokens'],
  [{ Translation: { Models: models, TextToAudio: { en: { engine: 'espeak-ng', speakers: 'f3' } } } }, 'Translation:TextToAudio:en:speakers'],
];
for (const [raw, key] of bad) {
  test(`rejected naming ${key}: ${JSON.stringify(raw)}`, (t) => {
    const error = t.throws(() => normalizeConfig(raw as Record<string, unknown>), { instanceOf: ConfigError });
    t.is(error?.key, key);
  });
}
