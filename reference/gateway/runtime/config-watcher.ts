// The config file watcher (hotReload: true): a change to the file, once the file has stayed the same size
// for STABLE_MS (chokidar's awaitWriteFinish: a writer pausing mid-file must not get its prefix applied),
// runs the same reload as POST /reload, which applies the file only if it loads and otherwise keeps the
// config running (catalog gateway/config/file-watcher).
import { watch } from 'chokidar';

/** Changes closer together than this make one reload. */
const SETTLE_MS = 100;
/** How long the file must stay unchanged before it is read (a slow writer's pause is shorter). */
export const STABLE_MS = 1_500;

export interface ConfigWatcher {
  close(): Promise<void>;
}

export function watchConfig(path: string, onChange: () => void): ConfigWatcher {
  const watcher = watch(path, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: STABLE_MS, pollInterval: 100 } });
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  };
  watcher.on('change', changed);
  watcher.on('add', changed);
  return {
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
