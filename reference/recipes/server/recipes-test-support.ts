// What the recipe routes' tests share: one server per test file with three accounts (an admin, a cook and another
// user: argon2 costs ~50 ms a hash, so they are made once), and a recipe-creating helper.
import { type Answer, ADMIN, bearer, COOK, registerVerified, setupAdmin, startTestServer, type TestServer } from './test-server.ts';

export const OTHER = { email: 'lindsay@example.org', password: 'lindsay bluth #2', name: 'Lindsay' };

export interface Account {
  readonly id: string;
  readonly token: string;
  readonly headers: Record<string, string>;
}

export interface RecipesFixture {
  readonly s: TestServer;
  readonly admin: Account;
  readonly cook: Account;
  readonly other: Account;
}

const account = (answer: Answer): Account => ({ id: answer.body.user.id, token: answer.body.token, headers: bearer(answer.body.token) });

export async function startWithAccounts(env: Record<string, string> = {}): Promise<RecipesFixture> {
  const s = await startTestServer(env);
  try {
    const admin = account(await setupAdmin(s));
    const cook = account(await registerVerified(s, COOK));
    const other = account(await registerVerified(s, OTHER));
    return { s, admin, cook, other };
  } catch (error) {
    await s.close();
    throw error;
  }
}

export { ADMIN, COOK };

/** Creates a recipe as `who` (title defaulted); its answer, which must be 201. */
export async function createRecipe(s: TestServer, who: Account, fields: Record<string, unknown> = {}): Promise<Answer> {
  const answer = await s.api('POST', '/api/recipes', { json: { title: 'Pancakes', ...fields }, headers: who.headers });
  if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** The smallest files of each accepted type (their first bytes are what counts). */
export const IMAGES = {
  jpg: Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex'),
  png: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex'),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.from('0d0000002f0000001007101111888808', 'hex')]),
  gif: Buffer.from('474946383961010001000000002c00000000010001000002003b', 'hex'),
} as const;

export interface PhotoPart {
  readonly bytes: Uint8Array;
  /** Declared file name and type (never trusted). */
  readonly filename?: string;
  readonly type?: string;
  readonly field?: string;
}

/** A multipart POST of `parts` to `path` (one file each) as `who`; the status and parsed body. */
export async function postPhoto(s: TestServer, who: Account | null, path: string, ...parts: PhotoPart[]): Promise<Answer> {
  const form = new FormData();
  for (const part of parts) {
    form.append(part.field ?? 'photo', new Blob([new Uint8Array(part.bytes)], { type: part.type ?? 'image/png' }), part.filename ?? 'fünke photo #1.png');
  }
  const res = await fetch(s.url + path, { method: 'POST', body: form, headers: who?.headers ?? {} });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body };
}
