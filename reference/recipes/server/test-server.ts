// Tests' recipe server: a store in a fresh temporary folder (an awkward name), the server on 127.0.0.1 port 0,
// and a small fetch helper. close() stops the server, closes the store and removes the folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAuthConfig } from '../auth/index.ts';
import { openRecipesStore, type RecipesStore } from '../store/index.ts';
import { type RecipesServer, startRecipesServer } from './create-server.ts';
import { DEFAULT_QUOTA } from './recipe-quota.ts';
import { parseImportPrivate, parseQuota } from './server-options.ts';

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
      uploadsDir: join(folder, 'uploads'),
      importPrivate: parseImportPrivate(env['RECIPES_IMPORT_PRIVATE']),
      quota: {
        recipes: parseQuota('RECIPES_QUOTA_RECIPES', env['RECIPES_QUOTA_RECIPES'], DEFAULT_QUOTA.recipes),
        bytes: parseQuota('RECIPES_QUOTA_BYTES', env['RECIPES_QUOTA_BYTES'], DEFAULT_QUOTA.bytes),
      },
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

/** Runs `run` against a fresh test server, closed afterwards whatever happens. */
export async function withServer(run: (s: TestServer) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const s = await startTestServer(env);
  try {
    await run(s);
  } finally {
    await s.close();
  }
}

export const ADMIN = { email: 'Admin@Example.org', password: 'correct horse battery', name: 'Ada Admin' };
export const COOK = { email: ' Cook.Funke@Example.org ', password: 'blue man group #1', name: 'Tobias Fünke' };

/** First-run setup with ADMIN: its answer ({token, user}). */
export const setupAdmin = (s: TestServer) => s.api('POST', '/api/admin/setup', { json: ADMIN });

/** Registers `account` without SMTP, follows its verificationUrl and logs in: the login answer ({token, user}). */
export async function registerVerified(s: TestServer, account: { email: string; password: string; name: string }): Promise<Answer> {
  const registered = await s.api('POST', '/api/auth/register', { json: account });
  // Only the query: APP_URL may put the link on another origin and under a base path.
  await s.api('GET', `/api/auth/verify-email${new URL(registered.body.verificationUrl).search}`);
  return s.api('POST', '/api/auth/login', { json: { email: account.email, password: account.password } });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
