// The redirect adapter: a model served by another instance. Each batch is forwarded as one
// TranslateLocalization call over a JSON array of the texts. `x-redirect-id` carries the instances a
// call went through; an instance that finds itself in it (or a chain past MAX_HOPS) stops the loop.
import { create } from '@bufbuild/protobuf';
import { TranslateLocalizationRequestSchema, TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { ServiceError } from '../core/errors.ts';
import { normalizeCode } from '../core/language-codes.ts';
import { TranslateServiceClient } from '../grpc/translate-client.ts';
import type { LanguagePair, TranslateOptions, TranslationModel } from './translation-model.ts';

export const REDIRECT_HEADER = 'x-redirect-id';
const MAX_HOPS = 8;
const FORWARD_TIMEOUT_MS = 120_000;

export interface RedirectOptions {
  address: string;
  /** The model key on the other instance; empty: its default model. */
  model: string;
  /** This instance's ID in redirect chains. */
  instanceId: string;
}

export class RedirectModel implements TranslationModel {
  readonly key: string;
  readonly #options: RedirectOptions;
  #client: TranslateServiceClient | undefined;

  constructor(key: string, options: RedirectOptions) {
    this.key = key;
    this.#options = options;
  }

  /** The other instance converts codes; this one only canonicalises them. */
  toNative(code: string): string {
    return normalizeCode(code);
  }

  /** The other instance decides which pairs it supports. */
  checkPair(): void {}

  checkFiles(): void {}

  async translate(texts: string[], pair: LanguagePair, { call, format, contexts }: TranslateOptions): Promise<string[]> {
    const { instanceId, address, model } = this.#options;
    const chain = [...call.redirectIds, instanceId];
    if (call.redirectIds.includes(instanceId) || call.redirectIds.length >= MAX_HOPS) {
      throw new ServiceError('FAILED_PRECONDITION', `redirect cycle detected for model "${this.key}": ${chain.join(' -> ')}`);
    }
    this.#client ??= new TranslateServiceClient(address);
    const request = create(TranslateLocalizationRequestSchema, {
      json: JSON.stringify(texts),
      sourceLanguage: pair.source,
      targetLanguage: pair.target,
      model,
      context: contexts?.some((c) => c) ? JSON.stringify(contexts.map((c) => c ?? '')) : '',
      languageFormat: format === 'native' ? 'native' : '',
    });
    const response = await this.#client.call(
      TranslateService.method.translateLocalization,
      request,
      { [REDIRECT_HEADER]: chain.join(',') },
      FORWARD_TIMEOUT_MS,
    );
    const out = JSON.parse(response.json) as unknown;
    if (!Array.isArray(out) || out.length !== texts.length || out.some((t) => typeof t !== 'string')) {
      throw new ServiceError('INTERNAL', `${address}: redirected model "${this.key}" answered with a different shape`);
    }
    return out as string[];
  }

  stop(): void {
    this.#client?.close();
  }
}
