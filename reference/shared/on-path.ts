// Whether a command is on a PATH: a file of that name, executable, in one of its folders. (The set-up step
// probes Debian packages with it, the translation service's embedded default its engines.)
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function onPath(command: string, path: string = process.env.PATH ?? ''): boolean {
  return path.split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
