// The translate suite's view of its target: one running instance per test file (started once when the
// target is a command, or the given gRPC address), a client per case, and the facts of the target
// description (see README.md in this folder).
import { type GetCapabilitiesResponse, TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { speechFile, speechGolden } from '../../tools/fixtures/translate-speech.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { GrpcClient, type GrpcOutcome } from '../harness/grpc-client.ts';
import { NotApplicable } from '../harness/inconclusive.ts';
import { launch, type Launched } from '../harness/launch.ts';
import { perFile } from '../harness/per-file.ts';
import { runEnv, type TargetSpec } from '../harness/run-env.ts';

export interface LanguagePairFact {
  /** Model key (empty: the default model). */
  model: string;
  /** BCP-47 codes of a pair the model supports. */
  source: string;
  target: string;
  /** A short text in `source`. */
  text: string;
  /** The same pair in the model's native codes, when they differ from BCP-47. */
  native?: { source: string; target: string };
}

export interface Variant {
  env?: Record<string, string>;
  args?: string[];
  command?: string;
  port?: number;
}

export interface TranslateDescription {
  capabilities?: string[];
  /** Key of the default model. */
  defaultModel: string;
  /** A pair the default model supports. */
  pair: LanguagePairFact;
  /** A key that is configured but not in AllowedModels (capability `model-not-allowed`). */
  notAllowedModel?: string;
  /** An allowed key whose model file is missing (capability `model-file-missing`), with a pair it would
   * serve. */
  missingFileModel?: { model: string; source: string; target: string };
  /** A BCP-47 code that `model` does not support (capability `unsupported-language`). */
  unsupportedLanguage?: { model: string; language: string };
  /** A key whose redirect leads back to this target (capability `redirect-loop`). */
  redirectLoopModel?: string;
  /** A key of the deterministic model behind fixtures/translate (capability `golden-model`). */
  goldenModel?: string;
  /** Texts with the raw label the detector (of a variant, when named) gives them (capability
   * `detector-labels`). */
  detectorLabels?: { text: string; label: string; variant?: string }[];
  /** A voice with several speakers (capability `multi-speaker-voice`): its language key and two of its
   * speaker names. The language should be a target of the default model (TranslateAudio uses it). */
  multiSpeakerVoice?: { language: string; speakers: string[] };
  /** A TTS map key whose voice file is missing at its configured path (capability `voice-file-missing`). */
  missingFileVoice?: string;
  /** How the target shows speech model loads and unloads in its standard error (capability
   * `model-lifecycle-log`): the variant running with a short ModelTtlMinutes, that value, and two regular
   * expressions matching one line each, whose first group is `stt` or `tts`. */
  modelLifecycle?: { variant: string; ttlMinutes: number; loaded: string; unloaded: string };
  /** Whether the detector in use gives scores. */
  detector: 'scored' | 'unscored';
  /** Named other instances of a `cmd:` target, for example `unscored-detector`: extra environment and
   * arguments, or another command (placeholders as for --target) listening on a fixed `port`. */
  variants?: Record<string, Variant>;
}

export const target: TargetSpec = runEnv.targets.translate!;

/** Deadline of recognition calls: a loaded 2-core machine running a file's speech cases side by side can
 * take well over the client's default 30 s for one answer; the suite checks behaviour, not speed. */
export const SPEECH_CALL = { timeoutMs: 120_000 };
/** Time limit of a case making recognition calls. */
export const SPEECH_CASE_MS = 240_000;

/** The golden English utterance (fixtures/translate/speech) as 16-bit mono PCM without leading silence. */
export const BASE_SPEECH = speechGolden().find((f) => f.encoding === 's16' && f.channels === 1 && f.leadingSilence === 0)!;
/** Its WAV file: a request valid by any reading (speech, not silence), for cases about something else. */
export const speechWav = (): Uint8Array => speechFile(BASE_SPEECH.file);

const FALLBACK: TranslateDescription = {
  defaultModel: '',
  pair: { model: '', source: 'en', target: 'es', text: 'Hello' },
  detector: 'unscored',
};

const declared = (target?.description ?? {}) as Partial<TranslateDescription>;

/** The description's facts (defaults for a target described by nothing). */
export const facts: TranslateDescription = { ...FALLBACK, ...declared };

/** The default model's key, for a case that needs it: not-applicable when the description does not give
 * it (no key can stand in for it). */
export function defaultModelKey(): string {
  if (!declared.defaultModel) throw new NotApplicable('the target description gives no defaultModel');
  return declared.defaultModel;
}

const instances = perFile<Launched>((instance) => instance.stop());

function spawnInstance(variant: string | undefined): Promise<Launched> {
  const extra: Variant = variant === undefined ? {} : (facts.variants?.[variant] ?? {});
  if (variant !== undefined && !facts.variants?.[variant]) throw new Error(`the target description has no variant ${variant}`);
  return launch(extra.command ?? target.command!, target.env ?? {}, {
    env: extra.env ?? {},
    args: extra.args ?? [],
    ...(extra.port === undefined ? {} : { listen: [extra.port] }),
  });
}

function start(variant: string | undefined): Promise<Launched> {
  return instances(variant ?? '', () => spawnInstance(variant));
}

/** The variant named after a capability (`stt-unconfigured`) when the description has one, else the main
 * instance: a target may offer a condition through its main instance or through such a variant. */
export function variantFor(capability: string): string | undefined {
  return facts.variants?.[capability] ? capability : undefined;
}

/** What a case staged on `capability` needs: the capability, and `launch` when the description stages it
 * on a variant of that name (an instance of its own, which the suite starts only for a `cmd:` target: with a
 * `grpc://` target the case is not-applicable). */
export function stagedOn(capability: string): string[] {
  return variantFor(capability) === undefined ? [capability] : [capability, 'launch'];
}

/** A new instance of a `cmd:` target (of a variant) for one case alone, with a client: for cases that read
 * the instance's log from its start (they declare `needs: ['launch']`). Stopped when the case ends. */
export async function freshInstance(c: CaseContext, variant?: string): Promise<{ client: GrpcClient; launched: Launched }> {
  if (target.kind === 'url') throw new Error('a url target cannot be started afresh');
  const launched = await spawnInstance(variant);
  c.defer(() => launched.stop());
  c.note(`# target (own instance): ${launched.commandLine}`);
  const port = (variant && facts.variants?.[variant]?.port) || launched.port;
  const client = new GrpcClient(`127.0.0.1:${port}`, (line) => c.note(line));
  c.defer(() => client.close());
  return { client, launched };
}

/** A client of the target (for a `cmd:` target, of the instance this test file started; of the named
 * variant's instance when `variant` is given: a case asking for one declares `needs: ['launch']`, see
 * stagedOn). */
export async function connect(c: CaseContext, variant?: string): Promise<GrpcClient> {
  let address: string;
  if (target.kind === 'url') {
    if (variant !== undefined) throw new Error(`variant ${variant} needs a cmd: target`);
    address = target.url!;
  } else {
    const instance = await start(variant);
    address = `127.0.0.1:${(variant && facts.variants?.[variant]?.port) || instance.port}`;
    c.note(`# target: ${instance.commandLine}`);
  }
  const client = new GrpcClient(address, (line) => c.note(line));
  c.defer(() => client.close());
  return client;
}

let reported: Promise<{ stt: boolean; tts: boolean } | undefined> | undefined;

/** For CaseOptions.applicable: the case needs speech recognition and/or synthesis, and is not-applicable when
 * the target's GetCapabilities reports them unavailable (asked once per test file, of the main instance). */
export function speechOn(...kinds: ('stt' | 'tts')[]): (c: CaseContext) => Promise<string | undefined> {
  return async (c) => {
    reported ??= (async () => {
      const out = await (await connect(c)).call(TranslateService.method.getCapabilities, {});
      return out.response ? { stt: out.response.sttAvailable, tts: out.response.ttsAvailable } : undefined;
    })();
    const caps = await reported;
    // Without an answer the case runs, and fails on what it finds.
    const off = kinds.filter((k) => caps && !caps[k]);
    return off.length > 0 ? `GetCapabilities reports ${off.map((k) => `${k}_available`).join(' and ')} false` : undefined;
  };
}

/** The answer of a call a case needs (a comparison, a prerequisite): the case is `error` when it fails. */
export function answer<T>(c: CaseContext, what: string, call: Promise<GrpcOutcome<T>>): Promise<T> {
  return c.need(what, async () => {
    const out = await call;
    if (out.codeName !== 'OK' || out.response === undefined) throw new Error(`${out.codeName}: ${out.message}`);
    return out.response;
  });
}

/** For a case sending the pair's text with an auto source: the target's detector must take the text for the
 * pair's source, or the case cannot judge its own clause. Which language a detector finds for a given text
 * is its own (a script-based one takes any Latin text for one language), so another answer makes the case
 * not-applicable (the description's pair should be one the detector recognises); a DetectLanguage that fails
 * leaves it `error` naming translate/detect/rpc. Asked once per client. */
export async function pairDetected(c: CaseContext, client: GrpcClient): Promise<void> {
  let asked = detections.get(client);
  if (!asked) {
    asked = client.call(TranslateService.method.detectLanguage, { text: facts.pair.text });
    detections.set(client, asked);
  }
  const out = await asked;
  if (out.codeName !== 'OK' || !out.response) {
    c.inconclusive(`DetectLanguage of the pair's text (translate/detect/rpc), needed to know what an auto source is detected as: ${out.codeName} ${out.message}`);
  }
  const primary = (tag: string): string => tag.split('-')[0]!.toLowerCase();
  if (primary(out.response.language) !== primary(facts.pair.source)) {
    throw new NotApplicable(`the target's detector takes the pair's text ${JSON.stringify(facts.pair.text)} for "${out.response.language}", not ${facts.pair.source}: describe a pair whose text it recognises`);
  }
}
const detections = new WeakMap<GrpcClient, Promise<GrpcOutcome<{ language: string }>>>();

/** What GetCapabilities reports, as a step a case needs. */
export function capabilities(c: CaseContext, client: GrpcClient): Promise<GetCapabilitiesResponse> {
  return answer(c, 'GetCapabilities', client.call(TranslateService.method.getCapabilities, {}));
}

/** The TTS map keys GetCapabilities lists, less the one whose voice file is missing on purpose. */
export async function listedVoices(c: CaseContext, client: GrpcClient): Promise<string[]> {
  const voices = (await capabilities(c, client)).availableVoices.filter((v) => v !== facts.missingFileVoice);
  c.note(`# voices: ${voices.join(', ')}`);
  return voices;
}
