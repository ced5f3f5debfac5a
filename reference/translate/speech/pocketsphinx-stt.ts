// Speech to text with PocketSphinx (Debian `pocketsphinx`, `pocketsphinx-en-us`): offline, English.
// Input is 16 kHz mono; each utterance PocketSphinx finds becomes a segment, timed by its words.
// PocketSphinx is deterministic and a run costs most of a second of CPU (model load, then decoding), so the
// segments of the last few distinct inputs are kept per loaded model: the same audio again (a client retrying,
// the same clip sent for transcription and for translation) is answered without a second run.
import { createHash } from 'node:crypto';
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

/** Distinct inputs whose segments a loaded model keeps. */
export const RECENT_INPUTS = 16;

/** Recognitions running at once: one per core. More only share the cores, and every call would finish late. */
const running = pLimit(availableParallelism());

/** PocketSphinx runs as a command per call; loading checks the model files (INTERNAL naming a missing one). */
export class PocketSphinxStt {
  readonly #files: [string, string, string];
  /** Segments by the SHA-256 of the engine's input file, oldest first; a failed run is not kept. */
  readonly #recent = new Map<string, Promise<Segment[]>>();

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

  async transcribe(samples: Float32Array): Promise<Segment[]> {
    const wav = encodeWav16(samples, STT_SAMPLE_RATE);
    const key = createHash('sha256').update(wav).digest('hex');
    let segments = this.#recent.get(key);
    if (segments === undefined) {
      const run = running(() => this.#run(wav));
      run.catch(() => {
        if (this.#recent.get(key) === run) this.#recent.delete(key);
      });
      segments = run;
    }
    // The most recent last: the oldest is the one let go.
    this.#recent.delete(key);
    this.#recent.set(key, segments);
    if (this.#recent.size > RECENT_INPUTS) this.#recent.delete(this.#recent.keys().next().value!);
    // Copies: a caller may change what it gets.
    return (await segments).map((s) => ({ ...s }));
  }

  async #run(wav: Uint8Array): Promise<Segment[]> {
    const [hmm, lm, dict] = this.#files;
    const dir = runFolder();
    const input = join(dir, 'input.wav');
    try {
      writeFileSync(input, wav);
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
      runFolders.delete(dir);
    }
  }
}

/** The folders of the runs under way. A run outlives the call it serves when the client goes away, and a
 * server stopped then (SIGTERM: it exits once its calls have ended) must not leave the run's folder behind. */
const runFolders = new Set<string>();
let removedAtExit = false;

function runFolder(): string {
  if (!removedAtExit) {
    process.on('exit', removeRunFolders);
    removedAtExit = true;
  }
  const dir = mkdtempSync(join(tmpdir(), 'stt-'));
  runFolders.add(dir);
  return dir;
}

function removeRunFolders(): void {
  for (const dir of runFolders) rmSync(dir, { recursive: true, force: true });
}
