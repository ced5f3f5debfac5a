// The config file watcher (hotReload: true): a change to the file, settled for a moment, runs the same
// reload as POST /reload (catalog gateway/config/file-watcher).
import { watch } from 'chokidar';

/** Changes closer together than this make one reload. */
const SETTLE_MS = 100;

export interface ConfigWatcher {
  close(): Promise<void>;
}

export function watchConfig(path: string, onChange: () => void): ConfigWatcher {
  const watcher = watch(path, { ignoreInitial: true });
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
