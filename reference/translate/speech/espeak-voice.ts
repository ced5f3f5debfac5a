// A TTS voice spoken by espeak-ng (Debian), which is also the phonemizer: 22050 Hz 16-bit mono. Speakers
// of a multi-speaker voice are espeak-ng variants (`en-us+f3`). Speed scales espeak-ng's 175 words/min
// within the range it accepts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWav, mixToMono } from '../audio/wav.ts';
import { ServiceError } from '../core/errors.ts';
import { runTool, ToolMissingError } from './run-tool.ts';
import type { SpeechOptions, Voice } from './voice.ts';

export const ESPEAK_SAMPLE_RATE = 22050;
const NORMAL_WPM = 175;
const MIN_WPM = 80;
const MAX_WPM = 450;

export class EspeakVoice implements Voice {
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  readonly speakers: string[];
  readonly #voice: string;

  constructor(voice: string, speakers: string[]) {
    this.#voice = voice;
    this.speakers = speakers;
  }

  /** Nothing is held between calls: each one runs espeak-ng. */
  async release(): Promise<void> {}

  async synthesize(text: string, { speed, speaker }: SpeechOptions): Promise<Float32Array> {
    const dir = mkdtempSync(join(tmpdir(), 'espeak-'));
    const file = join(dir, 'speech.wav');
    const wpm = Math.round(Math.min(MAX_WPM, Math.max(MIN_WPM, NORMAL_WPM * speed)));
    try {
      const voice = speaker ? `${this.#voice}+${speaker}` : this.#voice;
      const run = await runTool('espeak-ng', ['-v', voice, '-s', String(wpm), '-w', file, '--stdin'], text).catch((err: unknown) => {
        if (err instanceof ToolMissingError) throw new ServiceError('FAILED_PRECONDITION', 'the phonemizer espeak-ng is not installed on the server');
        throw err;
      });
      if (run.code !== 0) throw new ServiceError('INTERNAL', `espeak-ng failed (exit ${run.code}): ${run.stderr.trim().split('\n')[0]}`);
      return mixToMono(decodeWav(readFileSync(file), 'espeak-ng output'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
