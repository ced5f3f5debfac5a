// A Piper voice (`voice.onnx` + `voice.onnx.json`) run with ONNX Runtime: espeak-ng IPA per sentence, phoneme
// ids in Piper's layout, one inference per sentence, each sentence normalised by its peak as Piper does.
import { readFile, stat } from 'node:fs/promises';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { ServiceError } from '../core/errors.ts';
import { type OnnxRuntime, onnxRuntime } from '../core/onnx-runtime.ts';
import { phonemize } from './espeak-phonemes.ts';
import type { SpeechOptions, Voice } from './voice.ts';

const SESSION_OPTIONS = { logSeverityLevel: 3, intraOpNumThreads: 1 } as const;
const REQUIRED_INPUTS = ['input', 'input_lengths', 'scales'];
/** Piper's defaults for a config without `inference`. */
const DEFAULT_SCALES = { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 };
/** Silence between sentences at length_scale 1 (Piper adds 0.2 s after each one). */
const SENTENCE_SILENCE_SECONDS = 0.2;
/** Piper divides by the peak, but never by less than this (so near-silence is not amplified into noise). */
const MIN_PEAK = 0.01;

interface PiperConfig {
  sampleRate: number;
  espeakVoice: string;
  scales: [noise: number, length: number, noiseW: number];
  idMap: Map<string, number[]>;
  pad: number[];
  bos: number[];
  eos: number[];
  numSpeakers: number;
  /** Speaker name → id; empty for a single-speaker voice. */
  speakerIds: Map<string, number>;
}

const internal = (message: string, cause?: unknown): ServiceError => new ServiceError('INTERNAL', message, { cause });

async function checkFile(path: string, what: string): Promise<void> {
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw internal(err.code === 'ENOENT' ? `Piper voice ${what} not found at ${path}` : `Piper voice ${what} at ${path} is unreadable: ${err.message}`, err);
  });
  if (!info.isFile()) throw internal(`Piper voice ${what} at ${path} is not a file`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Reads and checks the voice's JSON description; every error names the file and the key. */
async function readConfig(path: string): Promise<PiperConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw internal(`Piper voice config ${path} is not valid JSON: ${(err as Error).message}`, err);
  }
  const bad = (key: string, expected: string): ServiceError => internal(`Piper voice config ${path}: ${key} must be ${expected}`);
  if (!isObject(raw)) throw bad('the document', 'an object');
  const { audio, espeak, inference = {}, phoneme_id_map: idMap, phoneme_type: type = 'espeak', num_speakers: count = 1 } = raw;
  if (type !== 'espeak') throw bad('phoneme_type', '"espeak" (the only phonemizer this server runs)');
  const sampleRate = isObject(audio) ? audio.sample_rate : undefined;
  if (!isId(sampleRate) || sampleRate === 0) throw bad('audio.sample_rate', 'a positive integer');
  const espeakVoice = isObject(espeak) ? espeak.voice : undefined;
  if (typeof espeakVoice !== 'string' || espeakVoice === '') throw bad('espeak.voice', 'an espeak-ng voice name');
  if (!isObject(inference)) throw bad('inference', 'an object');
  const scale = (key: keyof typeof DEFAULT_SCALES): number => {
    const v = inference[key] ?? DEFAULT_SCALES[key];
    const ok = typeof v === 'number' && Number.isFinite(v) && (v > 0 || (v === 0 && key !== 'length_scale'));
    if (!ok) throw bad(`inference.${key}`, key === 'length_scale' ? 'a number > 0' : 'a number >= 0');
    return v;
  };
  if (!isObject(idMap)) throw bad('phoneme_id_map', 'an object of phoneme → [ids]');
  const ids = new Map<string, number[]>();
  for (const [phoneme, value] of Object.entries(idMap)) {
    if (!Array.isArray(value) || !value.every(isId)) throw bad(`phoneme_id_map["${phoneme}"]`, 'an array of ids');
    ids.set(phoneme, value);
  }
  const special = (symbol: string): number[] => {
    const value = ids.get(symbol);
    if (!value) throw bad(`phoneme_id_map["${symbol}"]`, "present (Piper's pad _, bos ^ and eos $)");
    return value;
  };
  if (!isId(count)) throw bad('num_speakers', 'an integer');
  const speakerIds = new Map<string, number>();
  if (count > 1) {
    const map = raw.speaker_id_map;
    if (!isObject(map)) throw bad('speaker_id_map', `an object of name → id for the ${count} speakers`);
    for (const [name, id] of Object.entries(map)) {
      if (!isId(id) || id >= count) throw bad(`speaker_id_map["${name}"]`, `an id below num_speakers (${count})`);
      speakerIds.set(name, id);
    }
  }
  return {
    sampleRate,
    espeakVoice,
    scales: [scale('noise_scale'), scale('length_scale'), scale('noise_w')],
    idMap: ids,
    pad: special('_'),
    bos: special('^'),
    eos: special('$'),
    numSpeakers: count,
    speakerIds,
  };
}

/** Piper's layout: bos, pad, then each known phoneme's ids followed by pad, then eos. Phonemes are code points
 * after NFD (a nasal vowel is vowel + U+0303); unknown ones are skipped. */
export function phonemeIds(phonemes: string, config: Pick<PiperConfig, 'idMap' | 'pad' | 'bos' | 'eos'>): number[] {
  const ids = [...config.bos, ...config.pad];
  for (const phoneme of phonemes.normalize('NFD')) {
    const mapped = config.idMap.get(phoneme);
    if (mapped) ids.push(...mapped, ...config.pad);
  }
  ids.push(...config.eos);
  return ids;
}

const int64 = (ort: OnnxRuntime, values: number[], dims: number[]): Tensor => new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims);

/** `audio` divided by its peak (at least MIN_PEAK), clamped to [-1, 1], into `target` at `offset`. */
function normalizeInto(audio: Float32Array, target: Float32Array, offset: number): void {
  let peak = MIN_PEAK;
  for (const v of audio) peak = Math.max(peak, Math.abs(v));
  for (let i = 0; i < audio.length; i++) target[offset + i] = Math.max(-1, Math.min(1, audio[i]! / peak));
}

class PiperVoice implements Voice {
  readonly sampleRate: number;
  readonly speakers: string[];
  readonly #config: PiperConfig;
  readonly #hasSid: boolean;
  readonly #ort: OnnxRuntime;
  #session: InferenceSession | undefined;
  /** Runs in flight, awaited by `release` so the session is never freed under one. */
  readonly #running = new Set<Promise<unknown>>();

  constructor(ort: OnnxRuntime, config: PiperConfig, session: InferenceSession) {
    this.#ort = ort;
    this.#config = config;
    this.#session = session;
    this.#hasSid = session.inputNames.includes('sid');
    this.sampleRate = config.sampleRate;
    this.speakers = [...config.speakerIds].sort((a, b) => a[1] - b[1]).map(([name]) => name);
  }

  async synthesize(text: string, { speed, speaker }: SpeechOptions): Promise<Float32Array> {
    const [ort, config] = [this.#ort, this.#config];
    const [noise, length, noiseW] = config.scales;
    const scales = new ort.Tensor('float32', Float32Array.from([noise, length / speed, noiseW]), [3]);
    const sid = int64(ort, [speaker === undefined ? 0 : (config.speakerIds.get(speaker) ?? 0)], [1]);
    const chunks: Float32Array[] = [];
    for (const sentence of await phonemize(text, config.espeakVoice)) {
      const ids = phonemeIds(sentence, config);
      const feeds: Record<string, Tensor> = { input: int64(ort, ids, [1, ids.length]), input_lengths: int64(ort, [ids.length], [1]), scales };
      if (this.#hasSid) feeds.sid = sid;
      chunks.push(await this.#run(feeds));
    }
    const silence = Math.round(SENTENCE_SILENCE_SECONDS * config.sampleRate * (length / speed));
    const out = new Float32Array(chunks.reduce((n, c) => n + c.length, 0) + silence * Math.max(0, chunks.length - 1));
    let offset = 0;
    for (const chunk of chunks) {
      normalizeInto(chunk, out, offset);
      offset += chunk.length + silence;
    }
    return out;
  }

  /** One inference; the output flattened whatever its shape ([1, 1, T] or [1, 1, 1, T]). */
  async #run(feeds: Record<string, Tensor>): Promise<Float32Array> {
    const session = this.#session;
    if (!session) throw new ServiceError('UNAVAILABLE', 'the Piper voice was unloaded; retry');
    const run = session.run(feeds);
    this.#running.add(run);
    try {
      const output = (await run).output;
      if (output?.type !== 'float32') throw internal(`the Piper voice returned ${output ? `a ${output.type} output` : 'no output'}`);
      return output.data as Float32Array;
    } finally {
      this.#running.delete(run);
    }
  }

  async release(): Promise<void> {
    const session = this.#session;
    if (!session) return;
    this.#session = undefined;
    await Promise.allSettled(this.#running);
    await session.release();
  }
}

/** Loads the voice: checks both files, reads the config and creates the ONNX session (kept until `release`). */
export async function loadPiperVoice(modelPath: string, configPath: string): Promise<Voice> {
  await checkFile(modelPath, 'model');
  await checkFile(configPath, 'config');
  const config = await readConfig(configPath);
  const ort = await onnxRuntime();
  let session: InferenceSession;
  try {
    session = await ort.InferenceSession.create(modelPath, SESSION_OPTIONS);
  } catch (err) {
    throw internal(`cannot load the Piper voice model ${modelPath}: ${(err as Error).message}`, err);
  }
  const missing = REQUIRED_INPUTS.filter((name) => !session.inputNames.includes(name)).map((name) => `input "${name}"`);
  if (config.numSpeakers > 1 && !session.inputNames.includes('sid')) missing.push(`input "sid" (the config has ${config.numSpeakers} speakers)`);
  if (!session.outputNames.includes('output')) missing.push('output "output"');
  if (missing.length > 0) {
    await session.release();
    throw internal(`Piper voice model ${modelPath} lacks ${missing.join(', ')} (a Piper graph takes input, input_lengths, scales and, with several speakers, sid, and gives output)`);
  }
  return new PiperVoice(ort, config, session);
}
