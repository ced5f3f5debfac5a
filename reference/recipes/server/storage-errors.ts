// What a write answers when the disk refuses it (catalog recipes/errors/storage-full, storage-unavailable): the
// system error behind a store write (StoreError `io`, its `cause`) or a photo file, mapped here and nowhere else,
// by its code. Nothing was changed by such a write: the store takes a failed write back (memory stays as the disk
// has it, the previous file whole), and a photo file not fully written is removed.
import { StoreError } from '../store/index.ts';

/** What the disk said → the answer. A table, so the tests and the docs read the same one. */
export const STORAGE_FAULTS = {
  // 507 Insufficient Storage: the request may succeed once room is made.
  ENOSPC: { status: 507, words: 'no space left on the server’s disk' },
  EDQUOT: { status: 507, words: 'the server’s disk quota is exhausted' },
  // 503: the data folder cannot be written at all (remounted read-only, permissions changed under the server).
  EROFS: { status: 503, words: 'the server’s data folder is read-only' },
  EACCES: { status: 503, words: 'the server may not write its data folder (permission denied)' },
  EPERM: { status: 503, words: 'the server may not write its data folder (operation not permitted)' },
} as const satisfies Record<string, { status: 503 | 507; words: string }>;

type StorageCode = keyof typeof STORAGE_FAULTS;

const isStorageCode = (code: unknown): code is StorageCode => typeof code === 'string' && Object.hasOwn(STORAGE_FAULTS, code);

/** The system error code of a failed write: the cause of a store write, or the error of a file operation. */
function codeOf(err: unknown): unknown {
  if (err instanceof StoreError) return err.code === 'io' ? (err.cause as NodeJS.ErrnoException | undefined)?.code : undefined;
  return err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
}

/** The status and message (api-error.ts makes the ApiError) for a write the disk refused, or undefined. */
export function storageRefusal(err: unknown): { status: 503 | 507; message: string } | undefined {
  const code = codeOf(err);
  if (isStorageCode(code)) {
    const { status, words } = STORAGE_FAULTS[code];
    return { status, message: `Not saved: ${words} (${code}); nothing was changed, try again later` };
  }
  if (err instanceof StoreError && err.code === 'closed') {
    return { status: 503, message: 'Not saved: the server is stopping; nothing was changed, try again later' };
  }
  return undefined;
}
