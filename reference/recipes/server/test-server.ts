// Tests' recipe server: a store in a fresh temporary folder (an awkward name), the server on 127.0.0.1 port 0,
// and a small fetch helper. close() stops the server, closes the store and removes the folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAuthConfig } from '../auth/index.ts';
import { openRecipesStore, type RecipesStore } from '../store/index.ts';
import { type RecipesServer, startRecipesServer } from './create-server.ts';

export const TEST_SECRET = 'test secret of the recipes server, 48 bytes long!';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert each one
  readonly body: any;
}

export interface TestServer {
  readonly server: RecipesServer;
  readonly store: RecipesStore;
  readonly url: string;
  readonly logs: string[];
  /** A request with an optional JSON body (an object) or raw body (sent as given). */
  api(method: string, path: string, options?: { json?: unknown; body?: string; headers?: Record<string, string> }): Promise<Answer>;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const folder = await mkdtemp(join(tmpdir(), 'recipes server #fünke '));
  const store = await openRecipesStore({ file: join(folder, 'data', 'recipes.json'), log: () => {} });
  const logs: string[] = [];
  let server: RecipesServer;
  try {
    server = await startRecipesServer({
      store,
      auth: loadAuthConfig({ JWT_SECRET: TEST_SECRET, ...env }),
      host: '127.0.0.1',
      port: 0,
      appUrl: env['APP_URL'],
      mailTimeoutMs: 5_000,
      log: (line) => logs.push(line),
    });
  } catch (err) {
    await store.close();
    await rm(folder, { recursive: true, force: true });
    throw err;
  }
  const { url } = server;
  return {
    server,
    store,
    url,
    logs,
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let body = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + path, { method, headers, body: body ?? null });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: res.status, headers: res.headers, body: parsed };
    },
    async close() {
      try {
        await server.close();
      } finally {
        await store.close();
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}

export const ADMIN = { email: 'Admin@Example.org', password: 'correct horse battery', name: 'Ada Admin' };
export const COOK = { email: ' Cook.Funke@Example.org ', password: 'blue man group #1', name: 'Tobias Fünke' };
