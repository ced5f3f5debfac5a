// Removing photo files from the uploads folder once the records naming them are gone. Only plain file names are
// taken (a name with a path separator or a dot-name never leaves the folder); a file already missing is fine;
// any other failure is logged and does not fail the request, whose change is already on disk.
import { unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ServerContext } from './server-context.ts';

const isPlainName = (name: string) => name !== '' && name !== '.' && name !== '..' && basename(name) === name && !name.includes('\\');

/** Deletes `names` from ctx.uploadsDir; never throws. */
export async function removeUploadedFiles(ctx: ServerContext, names: readonly string[]): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      if (!isPlainName(name)) {
        ctx.log(`uploads: not removing ${JSON.stringify(name)}: not a plain file name`);
        return;
      }
      try {
        await unlink(join(ctx.uploadsDir, name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') ctx.log(`uploads: could not remove ${name}: ${String(err)}`);
      }
    }),
  );
}
