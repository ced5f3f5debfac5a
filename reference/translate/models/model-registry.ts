// Model keys → adapters. Adapters are built on first use and kept for the life of the process.
import type { ModelConfig, ServiceConfig } from '../config/normalize-config.ts';
import { invalidArgument, ServiceError } from '../core/errors.ts';
import { ApertiumModel } from './apertium-model.ts';
import { OnnxSeq2SeqModel } from './onnx-seq2seq-model.ts';
import { PseudoModel } from './pseudo-model.ts';
import { RedirectModel } from './redirect-model.ts';
import type { TranslationModel } from './translation-model.ts';

type StoppableModel = TranslationModel & { stop?(): void };

export class ModelRegistry {
  readonly #config: ServiceConfig;
  readonly #instanceId: string;
  readonly #built = new Map<string, StoppableModel>();

  constructor(config: ServiceConfig, instanceId: string) {
    this.#config = config;
    this.#instanceId = instanceId;
  }

  #build(key: string, config: ModelConfig): StoppableModel {
    switch (config.adapter) {
      case 'pseudo':
        return new PseudoModel(key);
      case 'apertium':
        return new ApertiumModel(key, config);
      case 'redirect':
        return new RedirectModel(key, { address: config.address, model: config.model, instanceId: this.#instanceId });
      case 'onnx-seq2seq':
        return new OnnxSeq2SeqModel(key, config);
    }
  }

  /** The model for a request's `model` field: empty → the default; undefined key → INVALID_ARGUMENT;
   * defined but not allowed → PERMISSION_DENIED. */
  resolve(requested: string): TranslationModel {
    const key = requested === '' ? this.#config.defaultModel : requested;
    const config = this.#config.models.get(key);
    if (!config) throw invalidArgument(`model "${key}" is not configured`);
    if (!this.#config.allowedModels.includes(key)) {
      throw new ServiceError('PERMISSION_DENIED', `model "${key}" is not in AllowedModels`);
    }
    let model = this.#built.get(key);
    if (!model) {
      model = this.#build(key, config);
      this.#built.set(key, model);
    }
    return model;
  }

  stop(): void {
    for (const model of this.#built.values()) model.stop?.();
  }
}
