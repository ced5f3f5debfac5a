// A tiny Piper-compatible voice (`tiny-voice.onnx` + `tiny-voice.onnx.json`): same inputs, output and config
// keys as a real Piper voice, but each phoneme id just plays a fixed sine tone, so tests can observe duration,
// speed and speaker without a trained model. Deterministic bytes.
import { OnnxGraph } from './onnx-graph.ts';

export const TINY_VOICE_SAMPLE_RATE = 22050;
/** Samples per phoneme id at length_scale 1. */
export const TINY_VOICE_SAMPLES_PER_ID = 256;
/** Speaker name → id; the speaker multiplies every tone's pitch. */
const SPEAKERS: [name: string, pitch: number][] = [
  ['low', 1],
  ['high', 1.5],
];
const BASE_HZ = 110;
const HZ_PER_ID = 15;
const AMPLITUDE = 0.5;
// ONNX TensorProto data types, for Cast.
const FLOAT = 1;
const INT64 = 7;

/** Silent symbols first: pad, bos, eos, word gap and the punctuation Piper keeps. */
const SILENT = ['_', '^', '$', ' ', '!', "'", '(', ')', ',', '-', '.', ':', ';', '?'];
/** What espeak-ng writes for English and its neighbours, after NFD (so nasal vowels arrive as vowel + U+0303):
 * letters, IPA vowels and consonants, stress and length marks, and a few diacritics. */
const SOUNDING = [
  ...'abcdefghijklmnopqrstuvwxyz',
  ...'æðøħŋœɐɑɒɓɔɕɖɗɘəɚɛɜɞɟɠɡɢɣɤɥɦɧɨɪɫɬɭɮɯɰɱɲɳɴɵɶɸɹɺɻɽɾʀʁʂʃʄʈʉʊʋʌʍʎʏʐʑʒʔʕʘʙʛʜʝʟʡʢβθχᵻⱱ',
  ...'ʰʲʷˈˌːˑ˞',
  '\u0303', // combining tilde (nasal)
  '\u0327', // combining cedilla (ç arrives as c + U+0327 after NFD)
  '\u0329', // combining vertical line below (syllabic)
  '\u032a', // combining bridge below (dental)
  '\u032f', // combining inverted breve below (non-syllabic)
  '\u0361', // combining double inverted breve (tie)
];
const SYMBOLS = [...SILENT, ...SOUNDING];

function config(): unknown {
  return {
    dataset: 'tiny-voice',
    audio: { sample_rate: TINY_VOICE_SAMPLE_RATE, quality: 'x_low' },
    espeak: { voice: 'en-us' },
    language: { code: 'en_US' },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: 'espeak',
    phoneme_map: {},
    phoneme_id_map: Object.fromEntries(SYMBOLS.map((s, id) => [s, [id]])),
    num_symbols: SYMBOLS.length,
    num_speakers: SPEAKERS.length,
    speaker_id_map: Object.fromEntries(SPEAKERS.map(([name], id) => [name, id])),
    piper_version: '1.0.0',
  };
}

/** The graph: repeat each id for 256 × length_scale samples (Resize, nearest), look up its pitch and loudness,
 * scale the pitch by the speaker's, and play sin(2π·f·t/rate). `input_lengths` trims the ids; the noise scales
 * are accepted and ignored (the voice is deterministic). */
function model(): Uint8Array {
  const g = new OnnxGraph();
  const input = g.input('input', 'int64', [1, 'phonemes']);
  const lengths = g.input('input_lengths', 'int64', [1]);
  const scales = g.input('scales', 'float', [3]);
  const sid = g.input('sid', 'int64', [1]);
  g.output('output', 'float', [1, 1, 'time']);

  const ids = g.node('Slice', [input, g.constant('int64', [1], [0]), lengths, g.constant('int64', [1], [1])]);
  const lengthScale = g.node('Gather', [scales, g.constant('int64', [1], [1])], { axis: 0 });
  const perId = g.node('Mul', [lengthScale, g.constant('float', [1], [TINY_VOICE_SAMPLES_PER_ID])]);
  const resizeScales = g.node('Concat', [g.constant('float', [1], [1]), perId], { axis: 0 });
  const repeated = g.node('Resize', [g.node('Cast', [ids], { to: FLOAT }), '', resizeScales], {
    mode: 'nearest',
    coordinate_transformation_mode: 'asymmetric',
    nearest_mode: 'floor',
  });
  const perSample = g.node('Cast', [repeated], { to: INT64 });

  const hz = g.node('Gather', [g.constant('float', [SYMBOLS.length], SYMBOLS.map((_, id) => BASE_HZ + HZ_PER_ID * id)), perSample], { axis: 0 });
  const loudness = SYMBOLS.map((_, id) => (id < SILENT.length ? 0 : AMPLITUDE));
  const amplitude = g.node('Gather', [g.constant('float', [SYMBOLS.length], loudness), perSample], { axis: 0 });
  const pitch = g.node('Gather', [g.constant('float', [SPEAKERS.length], SPEAKERS.map(([, p]) => p)), sid], { axis: 0 });

  const count = g.node('Gather', [g.node('Shape', [repeated]), g.constant('int64', [], [1])], { axis: 0 });
  const time = g.node('Range', [g.constant('float', [], [0]), g.node('Cast', [count], { to: FLOAT }), g.constant('float', [], [1])]);
  const radiansPerSample = g.constant('float', [1], [(2 * Math.PI) / TINY_VOICE_SAMPLE_RATE]);
  const phase = g.node('Mul', [g.node('Mul', [g.node('Mul', [hz, pitch]), time]), radiansPerSample]);
  const wave = g.node('Mul', [g.node('Sin', [phase]), amplitude]);
  g.node('Unsqueeze', [wave, g.constant('int64', [1], [1])], {}, 'output');
  return g.toBytes('tiny-piper-voice');
}

/** The two files of the tiny voice, by file name. */
export function tinyPiperVoiceFiles(): Map<string, Uint8Array> {
  const json = `${JSON.stringify(config(), null, 2)}\n`;
  return new Map([
    ['tiny-voice.onnx', model()],
    ['tiny-voice.onnx.json', new TextEncoder().encode(json)],
  ]);
}
