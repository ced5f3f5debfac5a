// Speech to text with PocketSphinx (Debian `pocketsphinx`, `pocketsphinx-en-us`): offline, English.
// Input is 16 kHz mono; each utterance PocketSphinx finds becomes a segment, timed by its words.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { STT_SAMPLE_RATE } from '../audio/resample.ts';
import { encodeWav16 } from '../audio/wav.ts';
import { ServiceError } from '../core/errors.ts';
import { runTool, ToolMissingError } from './run-tool.ts';

export const DEFAULT_POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';

export interface Segment {
  text: string;
  start: number;
  end: number;
}

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$/;
const FILLER = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/;

/** Segments from `pocketsphinx_continuous -time yes` output: one per utterance (`<s>` … `</s>`). */
export function parseSegments(output: string): Segment[] {
  const segments: Segment[] = [];
  let words: { word: string; start: number; end: number }[] = [];
  const close = (): void => {
    if (words.length > 0) {
      segments.push({ text: words.map((w) => w.word).join(' '), start: words[0]!.start, end: words.at(-1)!.end });
    }
    words = [];
  };
  for (const line of output.split('\n')) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const [, word, start, end] = match;
    if (word === '<s>') close();
    if (word === '</s>') close();
    if (FILLER.test(word!)) continue;
    words.push({ word: word!.replace(/\(\d+\)$/, ''), start: Number(start), end: Number(end) });
  }
  close();
  return segments;
}

/** The Debian layout: acoustic model, language model and dictionary side by side in the model folder. */
function modelFiles(model: string): [hmm: string, lm: string, dict: string] {
  return ['en-us', 'en-us.lm.bin', 'cmudict-en-us.dict'].map((name) => join(model, name)) as [string, string, string];
}

/** Recognitions running at once: one per core. More only share the cores, and every call would finish late. */
const running = pLimit(availableParallelism());

/** PocketSphinx runs as a command per call; loading checks the model files (INTERNAL naming a missing one). */
export class PocketSphinxStt {
  readonly #files: [string, string, string];

  private constructor(files: [string, string, string]) {
    this.#files = files;
  }

  static async load(model: string): Promise<PocketSphinxStt> {
    const files = modelFiles(model);
    for (const file of files) {
      if (!existsSync(file)) throw new ServiceError('INTERNAL', `speech-to-text model file missing at ${file}`);
    }
    return new PocketSphinxStt(files);
  }

  async release(): Promise<void> {}

  transcribe(samples: Float32Array): Promise<Segment[]> {
    return running(() => this.#run(samples));
  }

  async #run(samples: Float32Array): Promise<Segment[]> {
    const [hmm, lm, dict] = this.#files;
    const dir = mkdtempSync(join(tmpdir(), 'stt-'));
    const input = join(dir, 'input.wav');
    try {
      writeFileSync(input, encodeWav16(samples, STT_SAMPLE_RATE));
      const run = await runTool('pocketsphinx_continuous', ['-infile', input, '-time', 'yes', '-logfn', '/dev/null', '-hmm', hmm, '-lm', lm, '-dict', dict]).catch(
        (err: unknown) => {
          if (err instanceof ToolMissingError) throw new ServiceError('INTERNAL', 'the speech-to-text engine pocketsphinx is not installed on the server');
          throw err;
        },
      );
      if (run.code !== 0) throw new ServiceError('INTERNAL', `pocketsphinx failed (exit ${run.code})`);
      return parseSegments(run.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
