// One speech model's lifetime: loaded by the first call that needs it (concurrent first calls share the
// load), released after `ttlMs` without use. The idle timer starts when the last call using the model
// ends, so a model is never released under a call. Loads and unloads are logged (`model loaded: stt en`).

export interface Releasable {
  release(): Promise<void>;
}

export interface LifetimeOptions<T> {
  /** `stt` or `tts`, and the model's key: for the log lines. */
  kind: string;
  key: string;
  load: () => Promise<T>;
  ttlMs: number;
  log: (line: string) => void;
}

export class ModelLifetime<T extends Releasable> {
  readonly #options: LifetimeOptions<T>;
  #model: Promise<T> | undefined;
  #users = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: LifetimeOptions<T>) {
    this.#options = options;
  }

  get loaded(): boolean {
    return this.#model !== undefined;
  }

  /** Runs `work` with the model, loading it first when it is not in memory. A failed load leaves the model
   * unloaded, so the next call tries again. */
  async use<R>(work: (model: T) => Promise<R>): Promise<R> {
    clearTimeout(this.#timer);
    this.#users++;
    try {
      return await work(await this.#acquire());
    } finally {
      this.#users--;
      if (this.#users === 0 && this.#model) this.#timer = setTimeout(() => void this.#unload(), this.#options.ttlMs).unref();
    }
  }

  #acquire(): Promise<T> {
    if (!this.#model) {
      const { kind, key, load, log } = this.#options;
      const loading = load().then((model) => {
        log(`model loaded: ${kind} ${key}`);
        return model;
      });
      this.#model = loading;
      loading.catch(() => {
        if (this.#model === loading) this.#model = undefined;
      });
    }
    return this.#model;
  }

  async #unload(): Promise<void> {
    const model = this.#model;
    if (!model || this.#users > 0) return;
    this.#model = undefined;
    await (await model).release();
    this.#options.log(`model unloaded: ${this.#options.kind} ${this.#options.key}`);
  }

  /** Releases the model now (server shutdown). */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#unload();
  }
}
