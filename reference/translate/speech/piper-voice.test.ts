// The Piper voice adapter on the generated tiny Piper voice: loading, speed, speakers, errors, release; and
// the espeak-ng phonemizer's sentence grouping.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { OnnxGraph } from '../../../tools/models/onnx-graph.ts';
import { TINY_VOICE_SAMPLES_PER_ID, tinyPiperVoiceFiles } from '../../../tools/models/tiny-piper-voice.ts';
import { ServiceError } from '../core/errors.ts';
import { phonemize } from './espeak-phonemes.ts';
import { loadPiperVoice, phonemeIds } from './piper-voice.ts';
import type { Voice } from './voice.ts';

const dir = mkdtempSync(join(tmpdir(), 'piper vöice #'));
const model = join(dir, 'tiny-voice.onnx');
const config = join(dir, 'tiny-voice.onnx.json');
let voice: Voice;

test.before(async () => {
  for (const [name, bytes] of tinyPiperVoiceFiles()) writeFileSync(join(dir, name), bytes);
  voice = await loadPiperVoice(model, config);
});

test.after.always(async () => {
  await voice?.release();
  rmSync(dir, { recursive: true, force: true });
});

const speak = (text: string, speed = 1, speaker?: string): Promise<Float32Array> => voice.synthesize(text, { speed, speaker });

test('the tiny voice is the same two files on every call', (t) => {
  const [a, b] = [tinyPiperVoiceFiles(), tinyPiperVoiceFiles()];
  t.deepEqual([...a.keys()], ['tiny-voice.onnx', 'tiny-voice.onnx.json']);
  t.deepEqual(a, b);
  t.true(new TextDecoder().decode(a.get('tiny-voice.onnx.json')).endsWith('}\n'));
});

test('the voice reports its sample rate and speakers in id order', (t) => {
  t.is(voice.sampleRate, 22050);
  t.deepEqual(voice.speakers, ['low', 'high']);
});

test('phoneme ids follow Piper: bos, pad, each phoneme then pad, eos; unknown phonemes skipped', (t) => {
  const map = { idMap: new Map([['a', [5]], ['b', [6, 7]], ['\u0303', [8]]]), pad: [0], bos: [1], eos: [2] };
  t.deepEqual(phonemeIds('ab', map), [1, 0, 5, 0, 6, 7, 0, 2]);
  t.deepEqual(phonemeIds('aZb', map), [1, 0, 5, 0, 6, 7, 0, 2]);
  t.deepEqual(phonemeIds('ã', map), [1, 0, 5, 0, 8, 0, 2], 'NFD splits the nasal vowel');
});

test('espeak-ng phonemes come one string per sentence with clause punctuation kept', async (t) => {
  const sentences = await phonemize('How are you, my friend? Fine.', 'en-us');
  t.is(sentences.length, 2, JSON.stringify(sentences));
  t.regex(sentences[0]!, /^[^,?]+, [^,?]+\?$/u);
  t.regex(sentences[1]!, /^[^,?.]+\.$/u);
  t.deepEqual(await phonemize(' ... ', 'en-us'), []);
});

test('"Hello world." gives 256 samples per phoneme id, within [-1, 1] and peak-normalised', async (t) => {
  const json = JSON.parse(new TextDecoder().decode(tinyPiperVoiceFiles().get('tiny-voice.onnx.json')));
  const idMap = new Map<string, number[]>(Object.entries(json.phoneme_id_map));
  const [sentence] = await phonemize('Hello world.', 'en-us');
  const ids = phonemeIds(sentence!, { idMap, pad: [0], bos: [1], eos: [2] });
  const samples = await speak('Hello world.');
  t.is(samples.length, ids.length * TINY_VOICE_SAMPLES_PER_ID);
  t.true(samples.every((v) => v >= -1 && v <= 1));
  const peak = samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  t.true(peak > 0.99, `peak ${peak}`);
});

test('speed scales the duration', async (t) => {
  const normal = await speak('Hello world.');
  const fast = await speak('Hello world.', 2);
  const slow = await speak('Hello world.', 0.5);
  t.true(fast.length / normal.length >= 0.4 && fast.length / normal.length <= 0.6, `fast ${fast.length} / ${normal.length}`);
  t.true(slow.length / normal.length >= 1.8 && slow.length / normal.length <= 2.2, `slow ${slow.length} / ${normal.length}`);
});

test('the two speakers sound different', async (t) => {
  const low = await speak('Hello world.', 1, 'low');
  const high = await speak('Hello world.', 1, 'high');
  t.is(low.length, high.length);
  t.notDeepEqual(low, high);
  t.deepEqual(await speak('Hello world.', 1, undefined), low, 'the default speaker is id 0');
});

test('two sentences are two inferences with a pause between them', async (t) => {
  const one = await speak('Hello world.');
  const two = await speak('Hello world. Hello world.');
  t.is(two.length, 2 * one.length + Math.round(0.2 * voice.sampleRate));
});

test('a missing model or config file is INTERNAL and names the path', async (t) => {
  for (const [m, c] of [[join(dir, 'nö such.onnx'), config], [model, join(dir, 'nö such.json')]] as const) {
    const err = await t.throwsAsync(loadPiperVoice(m, c), { instanceOf: ServiceError });
    t.is(err?.code, 'INTERNAL');
    t.true(err?.message.includes('nö such'), err?.message);
  }
});

test('invalid JSON, a config without pad, and a graph without Piper inputs are INTERNAL', async (t) => {
  const write = (name: string, content: string | Uint8Array): string => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };
  const noPad = JSON.parse(new TextDecoder().decode(tinyPiperVoiceFiles().get('tiny-voice.onnx.json')));
  delete noPad.phoneme_id_map._;
  const g = new OnnxGraph();
  g.node('Identity', [g.input('x', 'float', [1])], {}, 'output');
  g.output('output', 'float', [1]);
  const cases = [
    [model, write('broken.json', '{"audio": '), /not valid JSON/],
    [model, write('no-pad.json', JSON.stringify(noPad)), /phoneme_id_map\["_"\]/],
    [write('identity.onnx', g.toBytes('identity')), config, /lacks input "input", input "input_lengths", input "scales", input "sid"/],
  ] as const;
  for (const [m, c, message] of cases) {
    const err = await t.throwsAsync(loadPiperVoice(m, c), { instanceOf: ServiceError, message });
    t.is(err?.code, 'INTERNAL');
  }
});

test('release frees the session, may be called twice, and later use is UNAVAILABLE', async (t) => {
  const own = await loadPiperVoice(model, config);
  await own.synthesize('Hi.', { speed: 1, speaker: 'high' });
  await t.notThrowsAsync(own.release());
  await t.notThrowsAsync(own.release());
  const err = await t.throwsAsync(own.synthesize('Hi.', { speed: 1, speaker: undefined }), { instanceOf: ServiceError });
  t.is(err?.code, 'UNAVAILABLE');
});
