// `recipes-api`: the recipe manager's HTTP API, the bundled reference (.cache/reference/recipes.mjs) run as its own
// process (pinned to core 0, the load on core 1) on a data file of 10,000 recipes of about 1 KB: 50 owners, about
// 30% public, titles, ingredients, tags and categories drawn from word lists (seeded, so every run has the same
// mix), one word of the titles in 1% of the recipes. The 50 owners are verified users; the bench logs in as
// the first (POST /api/auth/login) and measures, each round on a fresh copy of the file:
//   - GET /api/recipes?limit=20 (the first page of the list) and GET /api/recipes?q=<the 1% word> (search): one
//     client, requests one after the other, p50/p99 latency over 2,000 answers after 300 of warm-up; and req/s with
//     C connections (autocannon, after a 1 s warm-up);
//   - acknowledged writes/s of PATCH /api/recipes/:id from 32 concurrent HTTP clients, each on its own recipes of the
//     bench user (servings and description change: the document stays at 10,000 recipes), against plain lowdb in
//     the same run (store-writes.ts's peer: JSONFile, db.write() per change, no fsync, 32 callers in-process).
// The two peers alternate their order each round; each figure is the median of the rounds.
// Goals: list and search p50 < 5 ms; >= 300 durable writes/s at 10,000 recipes.
//
// Alone: npx tsx tools/bench/recipes/api.ts [--rounds N] [--duration S] [--connections C] [--profile DIR]
// (--profile: the server runs under node --cpu-prof, its profiles written to DIR, one per round)
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePorts } from '../../../conformance/harness/free-ports.ts';
import { PROJECT_ROOT } from '../../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../../conformance/harness/reference-targets.ts';
import { hashPassword } from '../../../reference/recipes/auth/passwords.ts';
import { openRecipesStore, type Recipe, type User } from '../../../reference/recipes/store/index.ts';
import { sampleRecipe } from '../../../reference/recipes/store/sample-recipe.ts';
import { autocannon, type LoadSample, median, runLoad, startProcess, stopProcess } from '../peers.ts';
import { random } from '../translate/corpus.ts';
import { CALLERS, GOAL, plainLowdb, RECIPES } from './store-writes.ts';

const OWNERS = 50;
const PUBLIC_SHARE = 0.3;
const SEARCH_WORD = 'saffron';
const SEARCH_SHARE = 0.01;
const LATENCY_GOAL_MS = 5;
const WARMUP = 300;
const REQUESTS = 2000;
const WRITE_SECONDS = 3;
const PASSWORD = 'bench password';
const benchEmail = (owner: number) => `cook${owner}@bench.test`;
const BUNDLE = join(PROJECT_ROOT, '.cache/reference/recipes.mjs');
const CLIENT = join(PROJECT_ROOT, 'tools/bench/recipes/api-client.mjs');
const LIST_PATH = '/api/recipes?limit=20';
const SEARCH_PATH = `/api/recipes?q=${SEARCH_WORD}`;

const ADJECTIVES = 'quick smoky creamy spicy rustic crispy tangy hearty golden zesty roasted braised grilled simple sunday'.split(' ');
const DISHES = 'soup stew curry salad pasta risotto tart pie bread cake omelette casserole chili noodles dumplings pancakes skewers gratin'.split(' ');
const FOODS = 'garlic lemon basil thyme ginger chickpeas lentils mushrooms spinach tomatoes leeks almonds honey paprika cumin feta olives pumpkin apples pears rice potatoes carrots onions butter cream eggs chicken salmon beef tofu beans'.split(' ');
const TAGS = 'vegetarian vegan quick weeknight family baking spicy summer winter festive gluten-free budget party healthy comfort'.split(' ');
const CATEGORIES = ['breakfast', 'lunch', 'dinner', 'dessert', 'snack', 'drink', 'side', 'other'];

export interface ApiBenchOptions {
  rounds: number;
  /** Seconds of autocannon load per endpoint and round. */
  duration: number;
  /** autocannon's connections. */
  connections: number;
  /** A folder for the server's CPU profiles (node --cpu-prof), one per round. */
  profile?: string;
}

/** The seeded data file and what the bench user should see in it. */
export interface Seed {
  file: string;
  bytes: number;
  /** Recipes the bench user may list: their own and every public one. */
  visible: number;
  /** Recipes matching SEARCH_WORD (the catalog's q rule), and those of them the bench user may list. */
  matches: number;
  visibleMatches: number;
  /** The bench user's recipes, dealt to the 32 writing clients. */
  clients: string[][];
}

interface Latency {
  p50: number;
  p99: number;
  mean: number;
  faults: number;
}

interface ApiSample {
  list: Latency;
  search: Latency;
  listRps: LoadSample;
  searchRps: LoadSample;
  writes: { rate: number; faults: number };
  /** `total` of the first list and search answers. */
  totals: { list: number; search: number };
}

/** The catalog's q rule (recipes/list-query/q-matching): case-insensitive substring of title, description,
 * ingredient names or tags. */
const matchesWord = (recipe: Recipe, word: string) =>
  [recipe.title, recipe.description, ...recipe.ingredients.map((i) => i.name), ...recipe.tags].some((text) => text.toLowerCase().includes(word));

export async function seed(folder: string): Promise<Seed> {
  const next = random(15);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const passwordHash = await hashPassword(PASSWORD);
  const users: Record<string, User> = {};
  const owners = Array.from({ length: OWNERS }, (_, k) => {
    const id = randomUUID();
    const at = new Date(Date.UTC(2023, 0, 1) + k * 60_000).toISOString();
    const role = k === 1 ? 'admin' : 'user';
    users[id] = { id, email: benchEmail(k), name: `Cook ${k}`, passwordHash, role, isActive: true, emailVerified: true, tokenVersion: 0, createdAt: at, updatedAt: at };
    return id;
  });
  const recipes: Record<string, Recipe> = {};
  const start = Date.UTC(2023, 1, 1);
  const span = 2 * 365 * 86_400_000;
  const searched = new Set<number>();
  while (searched.size < RECIPES * SEARCH_SHARE) searched.add(Math.floor(next() * RECIPES));
  for (let i = 0; i < RECIPES; i++) {
    const id = randomUUID();
    const base = sampleRecipe(id, owners[i % OWNERS]!);
    const at = new Date(start + Math.floor(next() * span)).toISOString();
    const title = `${pick(ADJECTIVES)} ${pick(DISHES)} with ${searched.has(i) ? SEARCH_WORD : pick(FOODS)}`;
    recipes[id] = {
      ...base,
      title: title[0]!.toUpperCase() + title.slice(1),
      ingredients: base.ingredients.map((ingredient) => ({ ...ingredient, name: pick(FOODS) })),
      tags: [...new Set([pick(TAGS), pick(TAGS), pick(TAGS)])],
      category: pick(CATEGORIES),
      isPublic: next() < PUBLIC_SHARE,
      createdAt: at,
      updatedAt: at,
    };
  }
  const file = join(folder, 'seed.json');
  const store = await openRecipesStore({ file });
  try {
    await store.update((draft) => {
      draft.users = users;
      draft.recipes = recipes;
    });
  } finally {
    await store.close();
  }
  const all = Object.values(recipes);
  const visible = all.filter((r) => r.ownerId === owners[0] || r.isPublic);
  const own = all.filter((r) => r.ownerId === owners[0]).map((r) => r.id);
  return {
    file,
    bytes: statSync(file).size,
    visible: visible.length,
    matches: all.filter((r) => matchesWord(r, SEARCH_WORD)).length,
    visibleMatches: visible.filter((r) => matchesWord(r, SEARCH_WORD)).length,
    clients: Array.from({ length: CALLERS }, (_, c) => own.filter((_, k) => k % CALLERS === c)),
  };
}

async function call(origin: string, method: string, path: string, token?: string, body?: object): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** Logs in, checks that list, search and PATCH answer as the catalog says; the token and the totals. */
export async function prepare(origin: string, seed: Seed): Promise<{ token: string; totals: ApiSample['totals'] }> {
  const answer = (what: string, res: { status: number; body: unknown }) => `${what} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  const login = await call(origin, 'POST', '/api/auth/login', undefined, { email: benchEmail(0), password: PASSWORD });
  const token = (login.body as { token?: unknown }).token;
  if (login.status !== 200 || typeof token !== 'string') throw new Error(answer('POST /api/auth/login', login));
  const list = await call(origin, 'GET', LIST_PATH, token);
  const page = list.body as { items?: unknown[]; total?: number };
  if (list.status !== 200 || page.items?.length !== 20) throw new Error(answer(`GET ${LIST_PATH}`, list));
  const search = await call(origin, 'GET', SEARCH_PATH, token);
  const found = search.body as { items?: unknown[]; total?: number };
  if (search.status !== 200 || !Array.isArray(found.items)) throw new Error(answer(`GET ${SEARCH_PATH}`, search));
  const patch = await call(origin, 'PATCH', `/api/recipes/${seed.clients[0]![0]}`, token, { servings: 2 });
  if (patch.status !== 200) throw new Error(answer('PATCH /api/recipes/:id', patch));
  return { token, totals: { list: page.total ?? Number.NaN, search: found.total ?? Number.NaN } };
}

/** Runs api-client.mjs (on the load's core) and parses its answer. */
async function client<T>(mode: 'latency' | 'patch', config: object): Promise<T> {
  return JSON.parse(await runLoad([process.execPath, CLIENT, mode, JSON.stringify(config)])) as T;
}

/** One round of the API: a server on a fresh copy of the seeded file in `folder`. */
async function apiRound(folder: string, seed: Seed, options: ApiBenchOptions, started: (child: ChildProcess | undefined) => void): Promise<ApiSample> {
  mkdirSync(folder);
  const dbFile = join(folder, 'recipes.json');
  copyFileSync(seed.file, dbFile);
  const [port] = await freePorts(1);
  const env = { JWT_SECRET: randomBytes(48).toString('base64'), PORT: String(port), RECIPES_HOST: '127.0.0.1', RECIPES_DB_FILE: dbFile };
  const profile = options.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profile}`];
  const server = await startProcess([process.execPath, ...profile, BUNDLE], env, port!, '0', { cwd: folder, quiet: true });
  started(server);
  try {
    const origin = `http://127.0.0.1:${port}`;
    const { token, totals } = await prepare(origin, seed);
    const latency = (path: string) => client<Latency>('latency', { origin, token, path, warmup: WARMUP, count: REQUESTS });
    const list = await latency(LIST_PATH);
    const search = await latency(SEARCH_PATH);
    const rps = async (path: string) => {
      const headers = { authorization: `Bearer ${token}` };
      await autocannon(`${origin}${path}`, 1, options.connections, headers); // warm-up
      return autocannon(`${origin}${path}`, options.duration, options.connections, headers);
    };
    const listRps = await rps(LIST_PATH);
    const searchRps = await rps(SEARCH_PATH);
    const writes = await client<ApiSample['writes']>('patch', { origin, token, clients: seed.clients, seconds: WRITE_SECONDS });
    return { list, search, listRps, searchRps, writes, totals };
  } finally {
    await stopProcess(server);
    started(undefined);
    rmSync(folder, { recursive: true, force: true });
  }
}

const ms = (x: number) => x.toFixed(2);
const goal = (met: boolean) => (met ? 'met' : 'NOT met');

export async function benchRecipesApi(options: ApiBenchOptions): Promise<void> {
  const { rounds, duration, connections } = options;
  loadReferenceTargets(['recipes']); // builds .cache/reference/recipes.mjs
  const folder = mkdtempSync(join(tmpdir(), 'bench-recipes-api-'));
  let server: ChildProcess | undefined;
  // Interrupted: stop the server and remove the folder all the same.
  const interrupted = () => {
    server?.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const api: ApiSample[] = [];
  const plain: number[] = [];
  let data: Seed;
  try {
    data = await seed(folder);
    console.log(
      `\nrecipes-api: ${RECIPES.toLocaleString('en')} recipes (${(data.bytes / 1e6).toFixed(1)} MB file) of ${OWNERS} owners, ` +
        `${data.visible.toLocaleString('en')} visible to the bench user; q=${SEARCH_WORD} matches ${data.matches} (${data.visibleMatches} visible); ` +
        `${rounds} rounds: ${REQUESTS} sequential requests per latency, ${duration} s x ${connections} connections per req/s, ` +
        `${WRITE_SECONDS} s of writes`,
    );
    const peers = [
      async (round: number) => {
        api.push(
          await apiRound(join(folder, `round-${round}`), data, options, (child) => {
            server = child;
          }),
        );
      },
      async () => {
        plain.push((await plainLowdb.run(folder, WRITE_SECONDS)).rate);
        rmSync(join(folder, 'plain.json'), { force: true });
      },
    ];
    for (let round = 0; round < rounds; round++) {
      for (const peer of [...peers.slice(round % peers.length), ...peers.slice(0, round % peers.length)]) await peer(round);
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    if (server) await stopProcess(server);
    rmSync(folder, { recursive: true, force: true });
  }
  const first = api[0]!.totals;
  console.log(`  answers' total: list ${first.list} (expected ${data.visible}), search ${first.search} (expected ${data.visibleMatches})`);
  const faults = (xs: number[]) => (xs.some((x) => x > 0) ? `   ${xs.reduce((a, b) => a + b, 0)} errors/non-2xx` : '');
  const reads = [
    { name: 'list', path: LIST_PATH, latency: api.map((s) => s.list), load: api.map((s) => s.listRps) },
    { name: 'search', path: SEARCH_PATH, latency: api.map((s) => s.search), load: api.map((s) => s.searchRps) },
  ];
  const p50 = new Map<string, number>();
  for (const { name, path, latency, load } of reads) {
    p50.set(name, median(latency.map((l) => l.p50)));
    console.log(
      `  ${`GET ${path}`.padEnd(34)} p50 ${ms(p50.get(name)!)} ms  p99 ${ms(median(latency.map((l) => l.p99)))} ms ` +
        `[p50 ${latency.map((l) => ms(l.p50)).join(', ')}; p99 ${latency.map((l) => ms(l.p99)).join(', ')}]   ` +
        `${median(load.map((l) => l.rps)).toFixed(0)} req/s x${connections} [${load.map((l) => l.rps.toFixed(0)).join(', ')}]` +
        faults([...latency.map((l) => l.faults), ...load.map((l) => l.faults)]),
    );
  }
  const writes = median(api.map((s) => s.writes.rate));
  const plainRate = median(plain);
  console.log(
    `  ${`PATCH /api/recipes/:id, ${CALLERS} HTTP clients`.padEnd(42)} ${writes.toFixed(0).padStart(6)} acknowledged writes/s ` +
      `[${api.map((s) => s.writes.rate.toFixed(0)).join(', ')}]${faults(api.map((s) => s.writes.faults))}`,
  );
  console.log(`  ${plainLowdb.name.padEnd(42)} ${plainRate.toFixed(0).padStart(6)} acknowledged writes/s [${plain.map((r) => r.toFixed(0)).join(', ')}]`);
  console.log(`  API writes / plain lowdb (${CALLERS} callers): ${(writes / plainRate).toFixed(2)}x`);
  console.log(
    `  goals: list p50 < ${LATENCY_GOAL_MS} ms ${goal(p50.get('list')! < LATENCY_GOAL_MS)}; search p50 < ${LATENCY_GOAL_MS} ms ` +
      `${goal(p50.get('search')! < LATENCY_GOAL_MS)}; >= ${GOAL} durable writes/s through the API ${goal(writes >= GOAL)}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '32' },
      profile: { type: 'string' },
    },
  });
  const { rounds, duration, connections, profile } = values;
  await benchRecipesApi({ rounds: Number(rounds), duration: Number(duration), connections: Number(connections), profile: profile && resolve(profile) });
}
