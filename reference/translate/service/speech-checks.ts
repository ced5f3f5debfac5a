// Request checks shared by the speech RPCs.
import { invalidArgument, ServiceError } from '../core/errors.ts';

/** 50 MB, the documented bound of audio_data. */
export const MAX_AUDIO_BYTES = 50 * 1024 * 1024;
const MIN_SPEED = 0.25;
const MAX_SPEED = 4;

export function checkAudioSize(audio: Uint8Array): void {
  if (audio.length > MAX_AUDIO_BYTES) {
    throw new ServiceError('RESOURCE_EXHAUSTED', `audio_data is ${audio.length} bytes; the limit is ${MAX_AUDIO_BYTES} bytes (50 MB)`);
  }
}

/** audio_format is reserved: empty or `wav`. */
export function checkAudioFormat(format: string): void {
  if (format !== '' && format.toLowerCase() !== 'wav') throw invalidArgument(`audio_format "${format}" is not supported (use "" or "wav")`);
}

/** The effective speed: 0 (unset) is 1.0; negative or non-finite is refused; the rest is clamped. */
export function effectiveSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed < 0) throw invalidArgument(`speed ${speed} is not a positive number`);
  if (speed === 0) return 1;
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}

/** The speaker to use: none requested → the voice's default; one the voice lacks → INVALID_ARGUMENT
 * (ignored for a single-speaker voice). */
export function chooseSpeaker(requested: string, speakers: string[]): string | undefined {
  if (requested === '' || speakers.length === 0) return undefined;
  if (!speakers.includes(requested)) throw invalidArgument(`voice "${requested}" is not a speaker of this voice (${speakers.join(', ')})`);
  return requested;
}
