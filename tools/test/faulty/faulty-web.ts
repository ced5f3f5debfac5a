// A deliberately faulty web gateway, for proving that the translate-web suite can fail. It is the reference
// gateway (its modules, from source under tsx) with each fault named in FAULTS (comma-separated, see
// faulty-web-faults.ts) injected where a real gateway would get it wrong: the environment it reads, the
// deadline and RPC of a route's call, the answer it makes of it, or the page's client script.
//
//   FAULTS=a,b node --import <tsx> tools/test/faulty/faulty-web.ts      (environment as for translate-web)
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { create, type DescMessage, type DescMethodUnary, type MessageShape } from '@bufbuild/protobuf';
import { status } from '@grpc/grpc-js';
import { PROJECT_ROOT } from '../../../conformance/harness/launch.ts';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { GatewayError } from '../../../reference/translate-web/gateway-error.ts';
import { type GatewayOptions, normalizeOptions } from '../../../reference/translate-web/gateway-options.ts';
import { type CallOptions, GrpcForwarder } from '../../../reference/translate-web/grpc-forwarder.ts';
import { createHandler } from '../../../reference/translate-web/http-handler.ts';
import { FIXED_DEADLINE_MS, ROUTES } from '../../../reference/translate-web/routes.ts';
import type { WebFault } from './faulty-web-faults.ts';

const faults = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean) as WebFault[]);
const on = (f: WebFault): boolean => faults.has(f);
const M = TranslateService.method;
/** The routes whose deadline comes from a variable. */
const VARIABLE_DEADLINE_RPCS = new Set<unknown>(ROUTES.filter((r) => typeof r.deadline === 'string').map((r) => r.rpc));

// ---------------------------------------------------------------- the environment it reads

const env = { ...process.env };
const unset = (name: string): boolean => (env[name] ?? '') === '';
if (on('port-default-8080') && unset('PORT')) env.PORT = '8080';
if (on('port-ignored')) env.PORT = '8080';
if (on('grpc-url-ignored')) env.TRANSLATE_GRPC_URL = 'localhost:5000';
if (on('grpc-url-default-5000') && unset('TRANSLATE_GRPC_URL')) env.TRANSLATE_GRPC_URL = 'localhost:5000';
if (on('transcribe-seconds') && !unset('TRANSCRIBE_TIMEOUT_MS')) env.TRANSCRIBE_TIMEOUT_MS = String(Number(env.TRANSCRIBE_TIMEOUT_MS) * 1000);
const options = normalizeOptions(env);

// ---------------------------------------------------------------- the calls it makes

type Method = DescMethodUnary<DescMessage, DescMessage>;

function deadline(method: Method, timeoutMs: number | undefined): number | undefined {
  const { TRANSLATE_TIMEOUT_MS } = options.timeouts;
  if (on('fixed-deadline-10s') && timeoutMs === FIXED_DEADLINE_MS) return 10_000;
  if (on('detect-uses-translate-variable') && method === M.detectLanguage) return TRANSLATE_TIMEOUT_MS;
  if (on('localize-uses-translate-variable') && method === M.translateLocalization) return TRANSLATE_TIMEOUT_MS;
  if (on('translate-audio-no-deadline') && method === M.translateAudio) return undefined;
  if (on('unset-60s') && timeoutMs === undefined && VARIABLE_DEADLINE_RPCS.has(method)) return 60_000;
  return timeoutMs;
}

/** The reference's forwarder with the faults of the calls between the routes and the service. */
class FaultyForwarder {
  readonly #inner: GrpcForwarder;

  constructor(inner: GrpcForwarder) {
    this.#inner = inner;
  }

  async call(method: Method, request: MessageShape<DescMessage>, callOptions: CallOptions): Promise<MessageShape<DescMessage>> {
    const opts = { ...callOptions, timeoutMs: deadline(method, callOptions.timeoutMs) };
    const fields = request as unknown as Record<string, unknown>;
    try {
      if (on('detect-calls-translate') && method === M.detectLanguage) {
        const translated = await this.#inner.call(M.translateText, create(M.translateText.input, { text: String(fields.text), targetLanguage: 'en' }), opts);
        return create(M.detectLanguage.output, { language: translated.detectedLanguage, probability: 1 });
      }
      if (on('capabilities-without-call') && method === M.getCapabilities) {
        return create(M.getCapabilities.output, { availableModels: ['default'], sttAvailable: true, ttsAvailable: true });
      }
      if (on('transcribe-calls-translate-audio') && method === M.transcribeAudio) {
        const heard = await this.#inner.call(M.translateAudio, create(M.translateAudio.input, { audioData: fields.audioData as Uint8Array, targetLanguage: 'en' }), opts);
        return create(M.transcribeAudio.output, { fullText: heard.transcription });
      }
      if (on('synthesize-twice') && method === M.synthesizeSpeech) await this.#inner.call(method, request, opts);
      if (on('translate-audio-twice') && method === M.translateAudio) await this.#inner.call(method, request, opts);
      const response = await this.#inner.call(method, request, opts);
      if (on('localize-echo') && method === M.translateLocalization) return create(M.translateLocalization.output, { json: String(fields.json), stringsTranslated: 0 });
      if (on('translate-echo') && method === M.translateText) return create(M.translateText.output, { translatedText: String(fields.text) });
      return response;
    } catch (err) {
      if (on('unavailable-as-500') && err instanceof GatewayError && err.code === status.UNAVAILABLE) {
        throw new GatewayError(err.code, err.message, { httpStatus: 500, cause: err });
      }
      throw err;
    }
  }

  close(): void {
    this.#inner.close();
  }
}

// ---------------------------------------------------------------- the page it serves

/** The reference page, its client's retry statuses changed by the faults: the reference's own folder when
 * unchanged, else one per change under .cache/ (named by its content, written once, atomically; no temporary folder for a killed
 * gateway to leave behind). */
function publicDir(): string {
  const reference = join(PROJECT_ROOT, 'reference/translate-web/public');
  const change = on('client-no-retry') ? 'no-retry' : on('client-retries-503-only') ? 'retries-503-only' : undefined;
  if (!change) return reference;
  const files = readdirSync(reference).sort() // a flat folder;
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(readFileSync(join(reference, file)));
  const dir = join(PROJECT_ROOT, '.cache/faulty-web', `${change}-${hash.digest('hex').slice(0, 12)}`);
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.${process.pid}`;
  mkdirSync(tmp, { recursive: true });
  cpSync(reference, tmp, { recursive: true });
  const client = join(tmp, 'api-client.js');
  const statuses = change === 'no-retry' ? '[]' : '[503]';
  writeFileSync(client, readFileSync(client, 'utf8').replace(/RETRY_STATUSES = \[[^\]]*\]/, `RETRY_STATUSES = ${statuses}`));
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another gateway wrote it first
  }
  return dir;
}

// ---------------------------------------------------------------- serving

const forwarder = new FaultyForwarder(new GrpcForwarder(options.grpcTarget));
const pages = publicDir();
const server = createServer(createHandler(options as GatewayOptions, forwarder as unknown as GrpcForwarder, pages));
server.listen(options.port, options.host, () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://${options.host}:${port}\n`);
  process.stderr.write(`faulty gateway, faults: ${[...faults].join(', ') || 'none'}\n`);
});
const stop = (): void => {
  server.close();
  server.closeAllConnections();
  forwarder.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
