// WAV in and out (wavefile does the RIFF parsing and writing). Input: PCM 8/16/24/32-bit or IEEE float,
// any rate and channel count, plain or WAVE_FORMAT_EXTENSIBLE; anything else, or sizes that do not fit
// the bytes, is INVALID_ARGUMENT. Output: 16-bit PCM mono.
// The samples themselves are read and written here, straight between the data chunk's little-endian bytes and
// typed arrays: wavefile packs and unpacks every byte of every sample through generic code (a division and a
// power of two per byte), which was a fifth of the translate reference's CPU in a conformance run.
import { endianness } from 'node:os';
import * as wavefile from 'wavefile';
import { invalidArgument } from '../core/errors.ts';
import { MAX_AUDIO_BYTES } from '../service/speech-checks.ts';

// The package's `main` is a UMD build (Node sees one default export); bundlers take its ESM `module`.
const { WaveFile } = 'WaveFile' in wavefile ? wavefile : (wavefile as unknown as { default: typeof wavefile }).default;

const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/** Sample rates a WAV may declare: outside this, no real audio (and the resampler's work is bounded by it). */
export const MIN_SAMPLE_RATE = 1_000;
export const MAX_SAMPLE_RATE = 384_000;
/** The longest audio a request may carry: what 50 MB (52,428,800 bytes) holds in the recognizer's own format,
 * 16-bit 16 kHz mono. Audio the size limit admits at 16 kHz or more and 16 bits or more is never refused; a
 * low-rate header cannot make a small file cost hours of resampling and recognition. */
export const MAX_AUDIO_SECONDS = MAX_AUDIO_BYTES / (2 * 16_000);

export interface DecodedAudio {
  sampleRate: number;
  /** One array per channel, samples in [-1, 1]. */
  channels: Float32Array[];
}

function formatOf(wav: InstanceType<typeof WaveFile>): number {
  const fmt = wav.fmt as { audioFormat: number; subformat?: number[] };
  if (fmt.audioFormat !== EXTENSIBLE) return fmt.audioFormat;
  // The sub-format GUID starts with the format code.
  return fmt.subformat?.[0] ?? 0;
}

export function decodeWav(bytes: Uint8Array, field = 'audio_data'): DecodedAudio {
  if (bytes.length === 0) throw invalidArgument(`${field} is empty (expected a WAV file)`);
  let wav: InstanceType<typeof WaveFile>;
  try {
    wav = new WaveFile(bytes);
  } catch (err) {
    throw invalidArgument(`${field} is not a WAV file: ${(err as Error).message}`);
  }
  const fmt = wav.fmt as { numChannels: number; sampleRate: number; bitsPerSample: number };
  const data = wav.data as { chunkSize: number; samples: Uint8Array };
  const format = formatOf(wav);
  const bits = fmt.bitsPerSample;
  const pcmOk = format === PCM && [8, 16, 24, 32].includes(bits);
  const floatOk = format === FLOAT && bits === 32;
  if (!pcmOk && !floatOk) throw invalidArgument(`${field}: WAV encoding ${format}/${bits}-bit is not supported (PCM 8/16/24/32-bit or 32-bit float)`);
  if (fmt.numChannels < 1) throw invalidArgument(`${field}: WAV header has ${fmt.numChannels} channels`);
  if (!(fmt.sampleRate >= MIN_SAMPLE_RATE && fmt.sampleRate <= MAX_SAMPLE_RATE)) {
    throw invalidArgument(`${field}: WAV sample rate ${fmt.sampleRate} Hz is outside ${MIN_SAMPLE_RATE}-${MAX_SAMPLE_RATE} Hz`);
  }
  const frameBytes = (bits / 8) * fmt.numChannels;
  if (data.chunkSize > data.samples.length || data.samples.length % frameBytes !== 0) {
    throw invalidArgument(`${field}: WAV data is truncated (${data.samples.length} of ${data.chunkSize} bytes)`);
  }
  // Checked from the header and the byte count, before any sample is decoded.
  const seconds = data.samples.length / frameBytes / fmt.sampleRate;
  if (seconds > MAX_AUDIO_SECONDS) {
    throw invalidArgument(`${field}: the WAV holds ${Math.round(seconds)} s of audio; at most ${MAX_AUDIO_SECONDS} s (${fmt.sampleRate} Hz, ${fmt.numChannels} channel(s), ${bits}-bit)`);
  }
  // A big-endian RIFX file is left to wavefile's own reading.
  const channels = wav.container === 'RIFX' ? viaWavefile(wav, bits, floatOk) : unitChannels(data.samples, bits, floatOk, fmt.numChannels);
  return { sampleRate: fmt.sampleRate, channels };
}

/** Integer PCM to [-1, 1] (8-bit WAV is unsigned); float samples may lie outside [-1, 1], or be NaN or
 * infinite: clipped, NaN taken as silence. */
const clipFloat = (s: number): number => (s >= 1 ? 1 : s <= -1 ? -1 : Number.isNaN(s) ? 0 : s);

/** The channels of little-endian interleaved samples of `bits` (float: 32-bit IEEE), in [-1, 1]. */
function unitChannels(bytes: Uint8Array, bits: number, float: boolean, count: number): Float32Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = bits / 8;
  const frames = bytes.length / size / count;
  const read: (at: number) => number = float
    ? (at) => clipFloat(view.getFloat32(at, true))
    : bits === 8
      ? (at) => (bytes[at]! - 128) / 128
      : bits === 16
        ? (at) => view.getInt16(at, true) / 32768
        : bits === 24
          ? (at) => (((bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) << 8) >> 8) / 8388608
          : (at) => view.getInt32(at, true) / 2147483648;
  const channels = Array.from({ length: count }, () => new Float32Array(frames));
  for (let c = 0; c < count; c++) {
    const channel = channels[c]!;
    for (let f = 0, at = c * size, stride = count * size; f < frames; f++, at += stride) channel[f] = read(at);
  }
  return channels;
}

function viaWavefile(wav: InstanceType<typeof WaveFile>, bits: number, float: boolean): Float32Array[] {
  const raw = wav.getSamples(false, Float64Array) as unknown as Float64Array | Float64Array[];
  const perChannel = (wav.fmt as { numChannels: number }).numChannels === 1 ? [raw as Float64Array] : (raw as Float64Array[]);
  const scale = 2 ** (bits - 1);
  const offset = bits === 8 ? 128 : 0;
  return perChannel.map((samples) => Float32Array.from(samples, float ? clipFloat : (s) => (s - offset) / scale));
}

/** The average of all channels. */
export function mixToMono(audio: DecodedAudio): Float32Array {
  const [first, ...rest] = audio.channels;
  if (!first) return new Float32Array(0);
  if (rest.length === 0) return first;
  const mono = new Float32Array(first.length);
  for (const channel of audio.channels) for (let i = 0; i < mono.length; i++) mono[i]! += channel[i]! / audio.channels.length;
  return mono;
}

/** A 16-bit PCM mono WAV file of `samples` in [-1, 1]. */
export function encodeWav16(samples: Float32Array | Int16Array, sampleRate: number): Uint8Array {
  const pcm = samples instanceof Int16Array ? samples : toInt16(samples);
  const wav = new WaveFile();
  if (!LITTLE_ENDIAN) {
    wav.fromScratch(1, sampleRate, '16', pcm);
    return wav.toBuffer();
  }
  // wavefile writes the header (its sizes are those of data.samples); the samples are the array's own bytes.
  wav.fromScratch(1, sampleRate, '16', new Int16Array(0));
  (wav.data as { samples: Uint8Array }).samples = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  return wav.toBuffer();
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** [-1, 1] to 16-bit, clipped (NaN is 0). A plain loop: Int16Array.from with a mapping function is 12 times
 * slower. */
function toInt16(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    pcm[i] = Math.round((s > 1 ? 1 : s < -1 ? -1 : s) * 32767);
  }
  return pcm;
}
