// `speech-rtf`: real-time factors of the reference's speech engines (time spent ÷ audio duration) and
// resampling speed against sox on the same audio. Runs the reference's engine adapters in-process: the
// engines (espeak-ng, PocketSphinx) dominate; gRPC adds a few milliseconds per call.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resample, STT_SAMPLE_RATE } from '../../../reference/translate/audio/resample.ts';
import { encodeWav16 } from '../../../reference/translate/audio/wav.ts';
import { EspeakVoice } from '../../../reference/translate/speech/espeak-voice.ts';
import { DEFAULT_POCKETSPHINX_MODEL, PocketSphinxStt } from '../../../reference/translate/speech/pocketsphinx-stt.ts';
import { median } from '../peers.ts';
import { TMP } from './processes.ts';

const TEXT =
  'The weather was calm this morning, so we walked to the old harbour before breakfast. ' +
  'Small boats were coming back with their nets, and the market near the station was already busy. ' +
  'In the afternoon we read in the park and planned the next part of the journey along the coast.';
const TTS_GOAL = 0.1;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, performance.now() - start];
}

export async function benchSpeech(rounds: number): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const voice = new EspeakVoice('en-us', ['f3']);
  const tts: number[] = [];
  const recognition: number[] = [];
  const ours: number[] = [];
  const sox: number[] = [];
  let seconds = 0;
  let longSeconds = 0;
  for (let round = 0; round < rounds; round++) {
    const [speech, ttsMs] = await timed(() => voice.synthesize(TEXT, { speed: 1, speaker: undefined }));
    seconds = speech.length / voice.sampleRate;
    tts.push(ttsMs / 1000 / seconds);
    const [samples16k] = await timed(() => resample(speech, voice.sampleRate, STT_SAMPLE_RATE));
    // A model loaded for the round: a loaded model keeps the segments of inputs it has decoded, and the same
    // speech comes every round.
    const stt = await PocketSphinxStt.load(DEFAULT_POCKETSPHINX_MODEL);
    const [, sttMs] = await timed(() => stt.transcribe(samples16k));
    recognition.push(sttMs / 1000 / seconds);
    // Resampling a minute-long signal: in-process vs the sox command on the same WAV, order alternated.
    const long = new Float32Array(Math.ceil(60 / seconds) * speech.length);
    for (let i = 0; i < long.length; i += speech.length) long.set(speech.subarray(0, Math.min(speech.length, long.length - i)), i);
    longSeconds = long.length / voice.sampleRate;
    const input = join(TMP, 'speech-60s.wav');
    writeFileSync(input, encodeWav16(long, voice.sampleRate));
    const runSox = async () => timed(async () => execFileSync('sox', [input, '-r', String(STT_SAMPLE_RATE), join(TMP, 'speech-60s-16k.wav')]));
    const runOurs = async () => timed(() => resample(long, voice.sampleRate, STT_SAMPLE_RATE));
    if (round % 2 === 0) {
      ours.push((await runOurs())[1]);
      sox.push((await runSox())[1]);
    } else {
      sox.push((await runSox())[1]);
      ours.push((await runOurs())[1]);
    }
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
  console.log(`\nspeech-rtf (${rounds} rounds; ${seconds.toFixed(1)} s of espeak-ng speech, ${TEXT.split(' ').length} words)`);
  const ttsRtf = median(tts);
  console.log(`  TTS espeak-ng real-time factor       ${ttsRtf.toFixed(3)}   [${fmt(tts)}]   goal < ${TTS_GOAL} ${ttsRtf < TTS_GOAL ? 'met' : 'NOT met'}`);
  console.log(`  STT PocketSphinx real-time factor    ${median(recognition).toFixed(3)}   [${fmt(recognition)}]`);
  const [o, s] = [median(ours), median(sox)];
  console.log(`  resample ${longSeconds.toFixed(0)} s 22050 -> 16000 Hz: own DFT resampler (audio/dft-resampler.ts) ${o.toFixed(0)} ms, sox command ${s.toFixed(0)} ms (sox ÷ ours = ${(s / o).toFixed(2)}x)`);
}
