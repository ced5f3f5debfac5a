// An encoder–decoder model exported to ONNX (NLLB, M2M100, Marian; the optimum / Xenova layout) run with ONNX
// Runtime: greedy decoding with the decoder without past key values. Native codes are the model's language
// tokens (`eng_Latn`, `__en__`), or BCP-47 codes for a single-pair model without language tokens (Marian).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { OnnxSeq2SeqConfig } from '../config/normalize-config.ts';
import { invalidArgument, ServiceError } from '../core/errors.ts';
import { type OnnxRuntime, onnxRuntime } from '../core/onnx-runtime.ts';
import { normalizeCode, parseTag } from '../core/language-codes.ts';
import type { LanguagePair, TranslateOptions, TranslationModel } from './translation-model.ts';

/** The files of the layout, in the order `checkFiles` checks them (`generation_config.json` is optional). */
const SEQ2SEQ_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/encoder_model.onnx', 'onnx/decoder_model.onnx'];
const SESSION_OPTIONS = { logSeverityLevel: 3, intraOpNumThreads: 1 } as const;
/** Without `max_length` in generation_config.json: 2 × the source length + 16, at most this. */
const MAX_LENGTH_CAP = 512;
const BCP47_PAIR = /^([a-z]{2,3}(?:-[A-Za-z]{4})?)-([a-z]{2,3}(?:-[A-Za-z]{4})?)$/;

interface Loaded {
  ort: OnnxRuntime;
  tokenizer: Tokenizer;
  encoder: InferenceSession;
  decoder: InferenceSession;
  decoderStart: number;
  eos: number;
  /** Never generated (Marian starts decoding with it and its configs forbid it). */
  pad: number | undefined;
  maxLength: number | undefined;
}

type Json = Record<string, unknown>;

function int64(ort: OnnxRuntime, ids: number[]): Tensor {
  return new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
}

/** The most likely token at the last position of `logits` [1, length, vocab], `pad` excluded. */
function argmaxLast(logits: Tensor, pad: number | undefined): number {
  const vocab = logits.dims[2]!;
  const data = logits.data as Float32Array;
  const offset = (logits.dims[1]! - 1) * vocab;
  let best = -1;
  for (let id = 0; id < vocab; id++) {
    if (id !== pad && (best < 0 || data[offset + id]! > data[offset + best]!)) best = id;
  }
  return best;
}

export class OnnxSeq2SeqModel implements TranslationModel {
  readonly key: string;
  readonly #path: string;
  /** BCP-47 code → language token; undefined for a single-pair model. */
  readonly #tokens: Map<string, string> | undefined;
  /** Native source → native targets. */
  readonly #pairs = new Map<string, Set<string>>();
  /** Native codes of every language in `#pairs`. */
  readonly #languages = new Set<string>();
  #loaded: Promise<Loaded> | undefined;

  constructor(key: string, config: OnnxSeq2SeqConfig) {
    this.key = key;
    this.#path = config.path;
    if (config.languageTokens) this.#tokens = new Map(Object.entries(config.languageTokens).map(([code, token]) => [normalizeCode(code), token]));
    for (const pair of config.pairs) {
      const [, source, target] = BCP47_PAIR.exec(pair) ?? [];
      if (source === undefined || target === undefined) throw new ServiceError('INTERNAL', `model "${key}": pair "${pair}" is not a BCP-47 pair`);
      const [from, to] = [this.#native(source), this.#native(target)];
      if (from === undefined || to === undefined) throw new ServiceError('INTERNAL', `model "${key}": pair "${pair}" has no language token for "${from === undefined ? source : target}"`);
      this.#pairs.set(from, (this.#pairs.get(from) ?? new Set()).add(to));
      this.#languages.add(from).add(to);
    }
  }

  /** The native code of a configured BCP-47 code. */
  #native(code: string): string | undefined {
    const tag = normalizeCode(code);
    return this.#tokens ? this.#tokens.get(tag) : tag;
  }

  toNative(code: string): string {
    const tag = parseTag(code)?.tag;
    if (tag === undefined) return code;
    const native = this.#native(tag);
    return native !== undefined && this.#languages.has(native) ? native : code;
  }

  checkPair({ source, target }: LanguagePair): void {
    const targets = this.#pairs.get(source);
    if (!targets) throw invalidArgument(`source_language "${source}" is not supported by model "${this.key}"`);
    if (!targets.has(target)) throw invalidArgument(`target_language "${target}" is not supported from "${source}" by model "${this.key}"`);
  }

  checkFiles(_pair?: LanguagePair): void {
    for (const name of SEQ2SEQ_FILES) {
      const file = join(this.#path, name);
      if (!existsSync(file)) throw new ServiceError('INTERNAL', `model "${this.key}": file missing at ${file}`);
    }
  }

  /** True from the first translation (its load under way or done) until `stop`. */
  get loaded(): boolean {
    return this.#loaded !== undefined;
  }

  async translate(texts: string[], pair: LanguagePair, _options?: TranslateOptions): Promise<string[]> {
    const model = await this.#load();
    const languages = this.#tokens ? { source: this.#tokenId(model, pair.source), target: this.#tokenId(model, pair.target) } : {};
    const out: string[] = [];
    for (const text of texts) out.push(await this.#translateOne(model, text, languages));
    return out;
  }

  #tokenId(model: Loaded, token: string): number {
    const id = model.tokenizer.token_to_id(token);
    if (id === undefined) throw new ServiceError('INTERNAL', `model "${this.key}": language token "${token}" is not in tokenizer.json`);
    return id;
  }

  async #translateOne(model: Loaded, text: string, languages: { source?: number; target?: number }): Promise<string> {
    const { ort, tokenizer, encoder, decoder, eos } = model;
    const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
    const source = [...(languages.source === undefined ? [] : [languages.source]), ...ids, eos];
    const mask = int64(ort, source.map(() => 1));
    const { last_hidden_state: hidden } = await encoder.run({ input_ids: int64(ort, source), attention_mask: mask }, ['last_hidden_state']);
    // Multilingual models: the target language is forced as the first generated token.
    const output = [model.decoderStart, ...(languages.target === undefined ? [] : [languages.target])];
    const prefix = output.length;
    const maxLength = model.maxLength ?? Math.min(MAX_LENGTH_CAP, 2 * source.length + 16);
    // The start token may itself be </s> (NLLB, M2M100): only a generated </s> ends the loop.
    while (output.length < maxLength) {
      const feeds = { input_ids: int64(ort, output), encoder_attention_mask: mask, encoder_hidden_states: hidden! };
      const { logits } = await decoder.run(feeds, ['logits']);
      const next = argmaxLast(logits!, model.pad);
      output.push(next);
      if (next === eos) break;
    }
    const generated = output.slice(prefix, output.at(-1) === eos ? -1 : undefined);
    return generated.length === 0 ? '' : tokenizer.decode(generated, { skip_special_tokens: true });
  }

  /** Loads on the first call; concurrent first calls share the load, and a failed load is tried again. */
  #load(): Promise<Loaded> {
    if (!this.#loaded) {
      const loading = this.#open();
      this.#loaded = loading;
      loading.catch(() => {
        if (this.#loaded === loading) this.#loaded = undefined;
      });
    }
    return this.#loaded;
  }

  async #open(): Promise<Loaded> {
    this.checkFiles();
    const readJson = async (name: string): Promise<Json> => JSON.parse(await readFile(join(this.#path, name), 'utf8')) as Json;
    const generationFile = join(this.#path, 'generation_config.json');
    const [config, generation, tokenizerJson, tokenizerConfig] = await Promise.all([
      readJson('config.json'),
      existsSync(generationFile) ? readJson('generation_config.json') : ({} as Json),
      readJson('tokenizer.json'),
      readJson('tokenizer_config.json'),
    ]);
    const id = (field: string): number | undefined => {
      const value = generation[field] ?? config[field];
      const first = Array.isArray(value) ? value[0] : value; // eos_token_id may be a list
      return typeof first === 'number' ? first : undefined;
    };
    const [decoderStart, eos] = [id('decoder_start_token_id'), id('eos_token_id')];
    if (decoderStart === undefined || eos === undefined) {
      throw new ServiceError('INTERNAL', `model "${this.key}": config.json lacks ${decoderStart === undefined ? 'decoder_start_token_id' : 'eos_token_id'}`);
    }
    const pad = id('pad_token_id');
    const maxLength = typeof generation.max_length === 'number' ? generation.max_length : undefined;
    const ort = await onnxRuntime();
    const [encoder, decoder] = await Promise.all(
      ['onnx/encoder_model.onnx', 'onnx/decoder_model.onnx'].map((name) => ort.InferenceSession.create(join(this.#path, name), SESSION_OPTIONS)),
    );
    return { ort, tokenizer: new Tokenizer(tokenizerJson, tokenizerConfig), encoder: encoder!, decoder: decoder!, decoderStart, eos, pad: pad === eos ? undefined : pad, maxLength };
  }

  /** Releases the sessions; a later translation loads them again. */
  stop(): void {
    const loaded = this.#loaded;
    this.#loaded = undefined;
    loaded?.then((model) => Promise.all([model.encoder.release(), model.decoder.release()])).catch(() => {});
  }
}
