// The ONNX seq2seq adapter on the project's tiny dictionary model (tools/models/tiny-seq2seq.ts), which has the
// real NLLB / M2M100 export layout and signatures: multilingual with language tokens, and single-pair (Marian).
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { tinySeq2SeqFiles } from '../../../tools/models/tiny-seq2seq.ts';
import type { OnnxSeq2SeqConfig } from '../config/normalize-config.ts';
import { NO_CALL_CONTEXT } from '../core/call-context.ts';
import { OnnxSeq2SeqModel } from './onnx-seq2seq-model.ts';

const OPTIONS = { call: NO_CALL_CONTEXT, format: 'bcp47' } as const;
const FILES = ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/encoder_model.onnx', 'onnx/decoder_model.onnx'];

function modelFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'seq2seq fünke #'));
  for (const [name, bytes] of tinySeq2SeqFiles()) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return dir;
}

function nllb(path: string): OnnxSeq2SeqConfig {
  return { adapter: 'onnx-seq2seq', path, pairs: ['en-es', 'es-en'], languageTokens: { en: 'eng_Latn', es: 'spa_Latn' } };
}

test('the tiny model has the layout and the same bytes on every call', (t) => {
  const [first, second] = [tinySeq2SeqFiles(), tinySeq2SeqFiles()];
  t.deepEqual([...first.keys()], FILES);
  t.deepEqual(first, second);
  t.true(new TextDecoder().decode(first.get('tokenizer.json')).endsWith('}\n'));
});

test('multilingual: BCP-47 codes map to language tokens; English ↔ Spanish both ways', async (t) => {
  const dir = modelFolder();
  const model = new OnnxSeq2SeqModel('nllb', nllb(dir));
  t.teardown(() => {
    model.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  t.is(model.toNative('en-US'), 'eng_Latn');
  t.is(model.toNative('es'), 'spa_Latn');
  t.is(model.toNative('fr'), 'fr');
  t.is(model.toNative('spa_Latn'), 'spa_Latn');
  const error = t.throws(() => model.checkPair({ source: 'eng_Latn', target: 'fr' }), { message: /target_language "fr"/ });
  t.is((error as { code?: string }).code, 'INVALID_ARGUMENT');
  t.throws(() => model.checkPair({ source: 'fr', target: 'spa_Latn' }), { message: /source_language "fr"/ });
  const pair = { source: 'eng_Latn', target: 'spa_Latn' };
  t.notThrows(() => model.checkPair(pair));
  t.notThrows(() => model.checkFiles(pair));
  // Two concurrent first calls share one load.
  const [there, again] = await Promise.all([
    model.translate(['hello world', 'good morning friends'], pair, OPTIONS),
    model.translate(['the house is big'], pair, OPTIONS),
  ]);
  t.deepEqual(there, ['hola mundo', 'buenos días amigos']);
  t.deepEqual(again, ['el casa es grande']);
  t.deepEqual(await model.translate(['hola mundo', 'buenos días amigos'], { source: 'spa_Latn', target: 'eng_Latn' }, OPTIONS), ['hello world', 'good morning friends']);
});

test('single pair without language tokens (Marian) and without generation_config.json', async (t) => {
  const dir = modelFolder();
  unlinkSync(join(dir, 'generation_config.json'));
  const model = new OnnxSeq2SeqModel('marian', { adapter: 'onnx-seq2seq', path: dir, pairs: ['en-es'], languageTokens: undefined });
  t.teardown(() => {
    model.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const pair = { source: model.toNative('en-GB'), target: model.toNative('es') };
  t.deepEqual(pair, { source: 'en', target: 'es' });
  t.throws(() => model.checkPair({ source: 'es', target: 'en' }), { message: /source_language "es"/ });
  t.notThrows(() => model.checkFiles(pair));
  t.deepEqual(await model.translate(['Hello world!', 'the cat'], pair, OPTIONS), ['Hola mundo!', 'el gato']);
});

test('a missing file is INTERNAL naming it; stop releases the sessions and a later call loads again', async (t) => {
  const dir = modelFolder();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const model = new OnnxSeq2SeqModel('nllb', nllb(dir));
  const pair = { source: 'eng_Latn', target: 'spa_Latn' };
  t.deepEqual(await model.translate(['hello'], pair, OPTIONS), ['hola']);
  t.true(model.loaded);
  model.stop();
  t.false(model.loaded);
  t.deepEqual(await model.translate(['world'], pair, OPTIONS), ['mundo']);
  model.stop();

  unlinkSync(join(dir, 'onnx/decoder_model.onnx'));
  const error = t.throws(() => model.checkFiles(pair), { message: /onnx\/decoder_model\.onnx/ });
  t.is((error as { code?: string }).code, 'INTERNAL');
  const failed = await t.throwsAsync(model.translate(['hello'], pair, OPTIONS), { message: /onnx\/decoder_model\.onnx/ });
  t.is((failed as { code?: string }).code, 'INTERNAL');
});
