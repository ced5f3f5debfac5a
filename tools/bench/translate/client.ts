// The calling side of the translation benchmarks, run as its own process pinned to core 1 by
// processes.ts: `client.ts '<json args>'`. Makes a warm-up call, then the timed calls, and prints one JSON
// object with the wall times (milliseconds, measured here around the calls).
import { readFileSync } from 'node:fs';
import { GrpcClient } from '../../../conformance/harness/grpc-client.ts';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';

export type ClientArgs =
  | { mode: 'localization'; port: number; file: string }
  | { mode: 'apertium'; port: number; file: string; concurrency: number };

export interface LocalizationResult {
  ms: number;
  strings: number;
}

export interface ApertiumResult {
  /** One TranslateLocalization call with every sentence in a JSON array. */
  batchMs: number;
  /** Every sentence in its own TranslateText call, `concurrency` calls at a time. */
  textMs: number;
  /** Median and 99th percentile of those calls' latencies. */
  textP50Ms: number;
  textP99Ms: number;
  /** The batch call's translations, in corpus order (compared with the bare command's output). */
  translations: string[];
}

const TIMEOUT_MS = 600_000;
const LANGS = { sourceLanguage: 'en', targetLanguage: 'es' };

async function localize(client: GrpcClient, json: string, model: string) {
  const outcome = await client.call(TranslateService.method.translateLocalization, { json, ...LANGS, model }, { timeoutMs: TIMEOUT_MS });
  if (!outcome.response) throw new Error(`TranslateLocalization (${model}): ${outcome.codeName} ${outcome.message}`);
  return outcome.response;
}

async function translateText(client: GrpcClient, text: string): Promise<string> {
  const outcome = await client.call(TranslateService.method.translateText, { text, ...LANGS, model: 'apertium' }, { timeoutMs: TIMEOUT_MS });
  if (!outcome.response) throw new Error(`TranslateText (apertium): ${outcome.codeName} ${outcome.message}`);
  return outcome.response.translatedText;
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
}

async function localization(client: GrpcClient, file: string): Promise<LocalizationResult> {
  const json = readFileSync(file, 'utf8');
  await localize(client, json, 'pseudo'); // warm-up: connection, JIT on both sides
  const [ms, response] = await timed(() => localize(client, json, 'pseudo'));
  return { ms, strings: response.stringsTranslated };
}

async function apertium(client: GrpcClient, file: string, concurrency: number): Promise<ApertiumResult> {
  const sentences = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  // Warm-up: starts the kept-alive eng-spa pipeline and both code paths.
  await localize(client, JSON.stringify(sentences.slice(0, 20)), 'apertium');
  await translateText(client, sentences[0]!);

  const [batchMs, response] = await timed(() => localize(client, JSON.stringify(sentences), 'apertium'));
  const translations = JSON.parse(response.json) as string[];
  if (translations.length !== sentences.length) throw new Error(`batch answered ${translations.length} of ${sentences.length} sentences`);

  let next = 0;
  const latencies: number[] = [];
  const worker = async (): Promise<void> => {
    while (next < sentences.length) {
      const [ms] = await timed(() => translateText(client, sentences[next++]!));
      latencies.push(ms);
    }
  };
  const [textMs] = await timed(() => Promise.all(Array.from({ length: concurrency }, worker)));
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  return { batchMs, textMs, textP50Ms: percentile(0.5), textP99Ms: percentile(0.99), translations };
}

const args = JSON.parse(process.argv[2] ?? '{}') as ClientArgs;
const client = new GrpcClient(`127.0.0.1:${args.port}`);
try {
  const result = args.mode === 'localization' ? await localization(client, args.file) : await apertium(client, args.file, args.concurrency);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  client.close();
}
