// A server of the suite's (an SMTP server, pages to fetch) run on a thread of its own: a worker's main thread
// may be busy for seconds (other files' cases share it, some compute), and a server that answers late makes
// the target's own deadline pass, a failure that is not the target's. The thread is plain JavaScript (an
// eval'd worker, its packages resolved from the project) that listens on 127.0.0.1, posts `{port}` (or
// `{error}`), may post more messages, and on any message from here closes and exits.
import { Worker } from 'node:worker_threads';

export interface ThreadServer {
  readonly port: number;
  /** Closes the server and ends its thread (at once if it has not ended within a second). */
  close(): Promise<void>;
}

/** Starts `code` on a thread with `workerData`; `onMessage` gets what it posts after its port. */
export async function threadServer(what: string, code: string, workerData: unknown, onMessage: (message: unknown) => void = () => {}): Promise<ThreadServer> {
  const thread = new Worker(code, { eval: true, workerData });
  const port = await new Promise<number>((resolve, reject) => {
    thread.once('error', reject);
    thread.on('message', (message: { port?: number; error?: string }) => {
      if (typeof message?.port === 'number') resolve(message.port);
      else if (typeof message?.error === 'string') reject(new Error(`${what}: ${message.error}`));
      else onMessage(message);
    });
  }).catch(async (err: unknown) => {
    await thread.terminate();
    throw err;
  });
  return {
    port,
    async close() {
      if (thread.threadId === -1) return; // ended already
      const ended = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
      thread.postMessage('close');
      const timer = setTimeout(() => void thread.terminate(), 1000);
      await ended;
      clearTimeout(timer);
    },
  };
}
