// transcribe_audio's file: an absolute path, a regular file no larger than the service's audio bound
// (decided from its size before reading), read whole.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { fromFileError, ToolError } from './tool-error.ts';

/** The service's bound on audio_data: 50 MB. */
export const MAX_AUDIO_BYTES = 52_428_800;

export async function readAudio(path: string): Promise<Uint8Array> {
  const shown = JSON.stringify(path);
  if (!isAbsolute(path)) throw new ToolError('INVALID_ARGUMENT', `file_path must be an absolute path, got ${shown}`);
  // No file name holds a NUL byte (the file system API would refuse it with an error of its own).
  if (path.includes('\0')) throw new ToolError('INVALID_ARGUMENT', `file_path must not contain a NUL byte, got ${shown}`);
  const info = await stat(path).catch((err: unknown) => {
    throw fromFileError(err, path);
  });
  // A directory, FIFO or device is no WAV file; reading a FIFO could block forever.
  if (info.isDirectory()) throw fromFileError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), path);
  if (!info.isFile()) throw new ToolError('NOT_FOUND', `${shown} is not a regular file`);
  if (info.size > MAX_AUDIO_BYTES) {
    throw new ToolError('RESOURCE_EXHAUSTED', `${shown} is ${info.size} bytes, above the audio limit of ${MAX_AUDIO_BYTES} bytes (50 MB)`);
  }
  return readFile(path).catch((err: unknown) => {
    throw fromFileError(err, path);
  });
}
