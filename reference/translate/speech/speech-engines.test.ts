// Real engines: espeak-ng speaks, PocketSphinx hears it back.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { resample, STT_SAMPLE_RATE } from '../audio/resample.ts';
import { EspeakVoice } from './espeak-voice.ts';
import { DEFAULT_POCKETSPHINX_MODEL, parseSegments, PocketSphinxStt } from './pocketsphinx-stt.ts';

test('PocketSphinx output lines become one segment per utterance, fillers dropped', (t) => {
  const out = 'hello world\n<s> 0.000 0.150 1.0\nhello 0.160 0.280 0.6\nworld(2) 0.290 0.770 0.3\n<sil> 0.780 1.170 0.9\n</s> 2.340 2.630 1.0\n<s> 3.0 3.1 1\nagain 3.2 3.5 0.9\n</s> 3.6 3.7 1\n';
  t.deepEqual(parseSegments(out), [
    { text: 'hello world', start: 0.16, end: 0.77 },
    { text: 'again', start: 3.2, end: 3.5 },
  ]);
});

test('espeak-ng speech at double speed is about half as long', async (t) => {
  const voice = new EspeakVoice('en-us', ['f3']);
  const normal = await voice.synthesize('The quick brown fox jumps over the lazy dog.', { speed: 1, speaker: undefined });
  const fast = await voice.synthesize('The quick brown fox jumps over the lazy dog.', { speed: 2, speaker: 'f3' });
  const ratio = fast.length / normal.length;
  t.true(ratio > 0.4 && ratio < 0.65, `ratio ${ratio}`);
});

test('round trip: espeak-ng speech transcribed by PocketSphinx gives recognisable words', async (t) => {
  const voice = new EspeakVoice('en-us', ['f3']);
  const speech = await voice.synthesize('Hello world. Good morning.', { speed: 0.8, speaker: undefined });
  const stt = await PocketSphinxStt.load(DEFAULT_POCKETSPHINX_MODEL);
  const segments = await stt.transcribe(await resample(speech, voice.sampleRate, STT_SAMPLE_RATE));
  const text = segments.map((s) => s.text).join(' ');
  t.regex(text, /\b(world|good|morning)\b/, text);
  for (const s of segments) t.true(s.start >= 0 && s.start <= s.end, JSON.stringify(s));
});

test('PocketSphinx: the same audio again gives the same segments, as copies a caller may change', async (t) => {
  const voice = new EspeakVoice('en-us', ['f3']);
  const speech = await voice.synthesize('Good morning.', { speed: 1, speaker: undefined });
  const stt = await PocketSphinxStt.load(DEFAULT_POCKETSPHINX_MODEL);
  const samples = await resample(speech, voice.sampleRate, STT_SAMPLE_RATE);
  const [first, second] = await Promise.all([stt.transcribe(samples), stt.transcribe(samples)]);
  t.deepEqual(second, first);
  first[0]!.text = 'changed';
  t.deepEqual(await stt.transcribe(samples), second);
});

test('PocketSphinx: a server that exits while a run is under way (its client gone, then SIGTERM) leaves no run folder', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'stt-exit-test-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const module = fileURLToPath(new URL('./pocketsphinx-stt.ts', import.meta.url));
  // Exits as the server's stop does (process.exit once its calls have ended) while PocketSphinx still runs.
  const script = `
    import { PocketSphinxStt, DEFAULT_POCKETSPHINX_MODEL } from ${JSON.stringify(module)};
    const stt = await PocketSphinxStt.load(DEFAULT_POCKETSPHINX_MODEL);
    void stt.transcribe(new Float32Array(16000 * 20).map((_, i) => Math.sin(i / 7) * 0.3));
    setTimeout(() => process.exit(0), 300);`;
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore', detached: true });
    child.once('close', (exit) => {
      // PocketSphinx itself, left running by the exit, goes with its group.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      resolve(exit);
    });
  });
  t.is(code, 0);
  t.deepEqual(readdirSync(tmp).filter((name) => name.startsWith('stt-')), []);
});
