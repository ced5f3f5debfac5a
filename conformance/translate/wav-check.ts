// WAV files from the suite's side: a strict reading of a RIFF/WAVE file a target returned (every size
// checked against the bytes — the point of the check, so the chunk walk is written out here), and WAV files of
// any layout for requests (written by wavefile).
import * as wavefile from 'wavefile';
import type { CaseContext } from '../harness/case-context.ts';

// The package's `main` is a UMD build: Node sees one default export.
const { WaveFile } = 'WaveFile' in wavefile ? wavefile : (wavefile as unknown as { default: typeof wavefile }).default;

export interface WavReport {
  /** What is wrong with the file; empty for a valid WAV. */
  problems: string[];
  /** 1 = PCM, 3 = IEEE float, 0xFFFE = extensible (with `subformat`). */
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataBytes: number;
  /** Sample frames and seconds of audio. */
  frames: number;
  seconds: number;
  /** A RIFF/WAVE file with a `fmt ` chunk of some channels, rate and bits and a `data` chunk: its layout and
   * length can be read, whatever else is wrong with it. */
  readable: boolean;
}

const PCM = 1;
const EXTENSIBLE = 0xfffe;

/** Reads a WAV file strictly: RIFF size = bytes - 8, chunks fit, `fmt ` before `data`, block align and byte
 * rate agree with the format, data holds whole frames. With `pcm16`, also 16-bit PCM. */
export function inspectWav(input: Uint8Array, { pcm16 = false } = {}): WavReport {
  const b = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const report: WavReport = { problems: [], format: 0, channels: 0, sampleRate: 0, bitsPerSample: 0, dataBytes: 0, frames: 0, seconds: 0, readable: false };
  const problem = (text: string): WavReport => {
    report.problems.push(text);
    return report;
  };
  if (b.length < 12) return problem(`${b.length} bytes: too short for a RIFF header`);
  if (b.toString('latin1', 0, 4) !== 'RIFF') return problem(`starts with ${JSON.stringify(b.toString('latin1', 0, 4))}, not "RIFF"`);
  if (b.toString('latin1', 8, 12) !== 'WAVE') return problem(`form type ${JSON.stringify(b.toString('latin1', 8, 12))}, not "WAVE"`);
  if (b.readUInt32LE(4) !== b.length - 8) report.problems.push(`RIFF size ${b.readUInt32LE(4)}, but ${b.length - 8} bytes follow it`);
  let at = 12;
  let fmtSeen = false;
  let dataSeen = false;
  while (at + 8 <= b.length) {
    const id = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    const body = at + 8;
    if (body + size > b.length) return problem(`chunk "${id}" at ${at} claims ${size} bytes; only ${b.length - body} remain`);
    if (id === 'fmt ') {
      if (size < 16) return problem(`fmt chunk of ${size} bytes (at least 16)`);
      fmtSeen = true;
      report.format = b.readUInt16LE(body);
      report.channels = b.readUInt16LE(body + 2);
      report.sampleRate = b.readUInt32LE(body + 4);
      const byteRate = b.readUInt32LE(body + 8);
      const blockAlign = b.readUInt16LE(body + 12);
      report.bitsPerSample = b.readUInt16LE(body + 14);
      if (report.format === EXTENSIBLE && size >= 40) report.format = b.readUInt16LE(body + 24);
      if (blockAlign !== (report.channels * report.bitsPerSample) / 8) report.problems.push(`block align ${blockAlign} for ${report.channels} × ${report.bitsPerSample} bits`);
      if (byteRate !== report.sampleRate * blockAlign) report.problems.push(`byte rate ${byteRate}, expected ${report.sampleRate * blockAlign}`);
    } else if (id === 'data') {
      if (!fmtSeen) report.problems.push('data chunk before the fmt chunk');
      dataSeen = true;
      report.dataBytes = size;
    }
    at = body + size + (size % 2);
  }
  if (at < b.length) report.problems.push(`${b.length - at} stray bytes after the last chunk`);
  if (!fmtSeen) report.problems.push('no fmt chunk');
  if (!dataSeen) report.problems.push('no data chunk');
  report.readable = fmtSeen && dataSeen && report.channels > 0 && report.sampleRate > 0 && report.bitsPerSample > 0;
  const frameBytes = (report.channels * report.bitsPerSample) / 8;
  if (frameBytes > 0) {
    if (report.dataBytes % frameBytes !== 0) report.problems.push(`data of ${report.dataBytes} bytes is not whole ${frameBytes}-byte frames`);
    report.frames = Math.floor(report.dataBytes / frameBytes);
    report.seconds = report.sampleRate > 0 ? report.frames / report.sampleRate : 0;
  }
  if (pcm16 && (report.format !== PCM || report.bitsPerSample !== 16)) {
    report.problems.push(`format ${report.format} at ${report.bitsPerSample} bits, not 16-bit PCM (1)`);
  }
  return report;
}

/** A returned WAV a case reads for its layout or length, not for its validity (translate/synthesize/
 * wav-output and translate/translate-audio/wav-output judge that): the case is `error` when there is no
 * layout to read. */
export function readWav(c: CaseContext, audio: Uint8Array | undefined, what: string): WavReport {
  const report = inspectWav(audio ?? new Uint8Array());
  if (!report.readable) c.inconclusive(`${what} cannot be read as a WAV file: ${report.problems.join('; ')}`);
  return report;
}

/** Bit depths wavefile writes: integer PCM, and `32f` for IEEE float. */
export type BitDepth = '8' | '16' | '24' | '32' | '32f';

/** A WAV file of `frames` sample frames: a tone on every channel, so it is not silence. */
export function makeWav(sampleRate: number, channels: number, bitDepth: BitDepth, frames: number): Uint8Array {
  const peak = bitDepth === '32f' ? 0.5 : bitDepth === '8' ? 60 : 2 ** (Number(bitDepth) - 2);
  const offset = bitDepth === '8' ? 128 : 0;
  const tone = (i: number, ch: number): number => {
    const v = Math.sin((2 * Math.PI * 440 * (ch + 1) * i) / sampleRate) * peak + offset;
    return bitDepth === '32f' ? v : Math.round(v);
  };
  const samples = Array.from({ length: channels }, (_, ch) => Array.from({ length: frames }, (_, i) => tone(i, ch)));
  const wav = new WaveFile();
  wav.fromScratch(channels, sampleRate, bitDepth, channels === 1 ? samples[0]! : samples);
  return wav.toBuffer();
}

/** The same audio as 16-bit PCM, at its rate and channel count (wavefile converts the samples). */
export function asPcm16(bytes: Uint8Array): Uint8Array {
  const wav = new WaveFile(bytes);
  wav.toBitDepth('16');
  return wav.toBuffer();
}

/** The audio of a WAV file played `times` times in a row, as one WAV file of the same layout: its data chunk's
 * bytes repeated (wavefile writes the chunk sizes from them). */
export function repeatWav(bytes: Uint8Array, times: number): Uint8Array {
  const wav = new WaveFile(bytes);
  const data = wav.data as { samples: Uint8Array };
  const repeated = new Uint8Array(data.samples.length * times);
  for (let i = 0; i < times; i++) repeated.set(data.samples, i * data.samples.length);
  data.samples = repeated;
  return wav.toBuffer();
}
