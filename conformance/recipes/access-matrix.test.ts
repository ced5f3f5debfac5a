// Who may do what to a recipe, over role × public/private × endpoint. The matrix runs in rounds: in each, every
// endpoint (a "slot") gets one call, by a caller in a role and on a fresh recipe of the owner's, public or
// private; the rounds go through each slot's role × visibility pairs in a fixed order, so every pair is called
// at least once in every run (a departure for one role is caught each time, not in some runs). The answer and
// what it left are judged by the rule of the clause the endpoint belongs to. The matrix runs once per file;
// each clause's case reports the violations of its own endpoint, so a fault shows under its clause.
//
//   must (the document): a public recipe is readable by anyone (public-readable-without-auth); a private one
//   not without a valid token, and by its owner (get); the bearer endpoints (list, update, delete, photos,
//   save, unsave) refuse a call without a valid token and change nothing; the owner's changes succeed; another
//   user may save a public recipe; the public list holds no private recipe; the tags, readable without a
//   token, hold a public recipe's tag.
//   informational (recipes/recipes/ownership): another user changes nothing of someone else's recipe, an
//   admin may (the reference's choice; the document does not say who may), every role × endpoint × visibility.
import type { CaseContext } from '../harness/case-context.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { Inconclusive } from '../harness/inconclusive.ts';
import { check } from '../harness/index.ts';
import { type Account, is2xx, shown } from './api.ts';
import { once, refused, uniqueWord } from './case-helpers.ts';
import { idsOf, walkPages } from './list-pages.ts';
import { filesHolding, mainPhotoPath, stepPhotoPath, uniquePng, uploadPhoto } from './photo-files.ts';
import { createWorded, recipePath } from './recipe-fields.ts';
import { type Instance, RECIPES, sharedInstance } from './target.ts';

const ROLES = ['anonymous', 'forged', 'owner', 'other', 'admin'] as const;
type Role = (typeof ROLES)[number];
type Endpoint = 'get' | 'patch' | 'delete' | 'photo' | 'stepPhoto' | 'save' | 'unsave' | 'list' | 'publicList' | 'tags';

interface Cast {
  inst: Instance;
  users: Record<'owner' | 'other' | 'admin', Account>;
}

/** Private recipes made on each instance of this file. */
const privateIds = new Map<string, Set<string>>();

async function cast(c: CaseContext): Promise<Cast> {
  const inst = await sharedInstance(c, 'access');
  const users = await once(inst, 'users', async () => {
    const [owner, other, admin] = await Promise.all([inst.api.user('owner'), inst.api.user('other'), inst.api.admin()]);
    return { owner: owner!, other: other!, admin: admin! };
  });
  return { inst, users };
}

function tokenOf(x: Cast, role: Role): string | undefined {
  if (role === 'anonymous') return undefined;
  if (role === 'forged') return `${x.users.owner.token.slice(0, -4)}${x.users.owner.token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  return x.users[role].token;
}

interface Run {
  x: Cast;
  role: Role;
  endpoint: Endpoint;
  isPublic: boolean;
  r: Awaited<ReturnType<typeof createWorded>>;
  /** The title a PATCH sets, the photo an upload sends. */
  marker: string;
  photo: Buffer;
  res: HttpResponse;
  /** What the call was, for messages. */
  call: string;
}

/** Makes the recipe and makes the call. */
async function act(x: Cast, role: Role, endpoint: Endpoint, isPublic: boolean): Promise<Run> {
  const { api } = x.inst;
  const r = await createWorded(api, x.users.owner.token, { isPublic });
  if (!isPublic) {
    const known = privateIds.get(api.key) ?? new Set<string>();
    known.add(r.id);
    privateIds.set(api.key, known);
  }
  const token = tokenOf(x, role);
  const marker = uniqueWord('mk');
  const photo = uniquePng();
  const path = recipePath(r.id);
  const calls: Record<Endpoint, () => [string, Promise<HttpResponse>]> = {
    get: () => [`GET ${path}`, api.call('GET', path, { token })],
    patch: () => [`PATCH ${path}`, api.call('PATCH', path, { token, json: { ...r.fields, title: `Changed ${marker}` } })],
    delete: () => [`DELETE ${path}`, api.call('DELETE', path, { token })],
    photo: () => [`POST ${mainPhotoPath(r.id)}`, uploadPhoto(api, mainPhotoPath(r.id), token, photo)],
    stepPhoto: () => [`POST ${stepPhotoPath(r.id, 2)}`, uploadPhoto(api, stepPhotoPath(r.id, 2), token, photo)],
    save: () => [`POST ${path}/saved`, api.call('POST', `${path}/saved`, { token })],
    unsave: () => [`DELETE ${path}/saved`, api.call('DELETE', `${path}/saved`, { token })],
    list: () => ['GET /api/recipes', api.call('GET', '/api/recipes', { token })],
    publicList: () => ['GET /api/recipes/public', api.call('GET', '/api/recipes/public', { token })],
    tags: () => ['GET /api/recipes/tags', api.call('GET', '/api/recipes/tags', { token })],
  };
  // Unsaving what was never saved is not shown (recipes/saved/semantics): the caller saves it first (which
  // only another user's save of a public recipe must allow, judged in its own runs).
  if (endpoint === 'unsave' && token !== undefined && role !== 'forged') await api.call('POST', `${path}/saved`, { token });
  const [call, sent] = calls[endpoint]();
  return { x, role, endpoint, isPublic, r, marker, photo, res: await sent, call: `${call} as ${role} on a ${isPublic ? 'public' : 'private'} recipe` };
}

/** A problem found, or none; `unjudged` when no rule of the document applies to the run. */
type Verdict = string | undefined | 'unjudged';

const about = (run: Run): string => `${run.call}: ${shown(run.res)}`;

/** The owner's view of the recipe after the call: still there, its title, no photo of the call stored. */
async function unchanged(run: Run): Promise<string | undefined> {
  const { api } = run.x.inst;
  const res = await api.call('GET', recipePath(run.r.id), { token: run.x.users.owner.token });
  if (!is2xx(res)) return `after ${about(run)}, the owner cannot read the recipe: ${shown(res)}`;
  if (!res.text.includes(run.r.words.title) || res.text.includes(run.marker)) return `after ${about(run)}, the recipe changed: ${shown(res)}`;
  if (filesHolding(run.x.inst.launched.dir, run.photo).length > 0) return `after ${about(run)}, its photo was stored`;
  return undefined;
}

/** A call the owner makes succeeds and has its effect (`effect` says what is wrong, or nothing). */
async function succeeds(run: Run, effect?: (run: Run) => Promise<string | undefined>): Promise<string | undefined> {
  if (!is2xx(run.res)) return about(run);
  return effect?.(run);
}

/** The recipe is in the answer. */
const readable = async (run: Run): Promise<string | undefined> => (is2xx(run.res) && run.res.text.includes(run.r.words.title) ? undefined : about(run));

/** Refused, and the recipe not in the answer, and nothing changed. */
async function refusedUnchanged(run: Run): Promise<string | undefined> {
  if (!refused(run.res) || run.res.text.includes(run.r.words.title)) return about(run);
  return unchanged(run);
}

const withoutToken = (run: Run) => run.role === 'anonymous' || run.role === 'forged';

/** The owner reads the recipe after the call: `check` says what is wrong with that answer. */
const ownerReads = (check: (res: HttpResponse, run: Run) => string | undefined) => async (run: Run) => {
  const res = await run.x.inst.api.call('GET', recipePath(run.r.id), { token: run.x.users.owner.token });
  return check(res, run);
};

interface Slot {
  clause: string;
  endpoint: Endpoint;
  roles: readonly Role[];
  /** Fixed visibility (else either). */
  isPublic?: boolean;
  judge(run: Run): Promise<Verdict>;
}

/** A bearer endpoint that changes the recipe: refused without a valid token, done for the owner. */
const change = (clause: string, endpoint: Endpoint, effect: (run: Run) => Promise<string | undefined>): Slot => ({
  clause,
  endpoint,
  roles: ['anonymous', 'forged', 'owner'],
  judge: (run) => (withoutToken(run) ? refusedUnchanged(run) : succeeds(run, effect)),
});

/** Favorites: refused without a valid token; which recipes may be saved is not shown (recipes/saved/
 * semantics), but another user's public recipe may. */
const favorite = (clause: string, endpoint: Endpoint): Slot => ({
  clause,
  endpoint,
  roles: ['anonymous', 'forged', 'other'],
  judge: async (run) => (withoutToken(run) ? refusedUnchanged(run) : run.isPublic ? succeeds(run) : 'unjudged'),
});

const photoStored = async (run: Run) =>
  filesHolding(run.x.inst.launched.dir, run.photo).length > 0 ? undefined : `after ${about(run)}, no file below the target's folder holds the photo`;

const SLOTS: readonly Slot[] = [
  { clause: 'recipes/recipes/public-readable-without-auth', endpoint: 'get', roles: ['anonymous', 'owner', 'other', 'admin'], isPublic: true, judge: readable },
  {
    clause: 'recipes/recipes/get',
    endpoint: 'get',
    roles: ['anonymous', 'forged', 'owner'],
    isPublic: false,
    judge: async (run) => (withoutToken(run) ? (refused(run.res) && !run.res.text.includes(run.r.words.title) ? undefined : about(run)) : readable(run)),
  },
  change('recipes/recipes/update', 'patch', ownerReads((res, run) => (is2xx(res) && res.text.includes(run.marker) ? undefined : `after ${about(run)}, the owner reads: ${shown(res)}`))),
  change('recipes/recipes/delete', 'delete', ownerReads((res, run) => (refused(res) ? undefined : `after ${about(run)}, the owner reads: ${shown(res)}`))),
  change('recipes/recipe-photos/main-photo-upload', 'photo', photoStored),
  change('recipes/recipe-photos/step-photo-upload', 'stepPhoto', photoStored),
  favorite('recipes/saved/save', 'save'),
  favorite('recipes/saved/unsave', 'unsave'),
  {
    clause: 'recipes/recipes/list-endpoint',
    endpoint: 'list',
    roles: ROLES,
    judge: async (run) => ((withoutToken(run) ? refused(run.res) : is2xx(run.res)) ? undefined : about(run)),
  },
  { clause: 'recipes/public/list-public', endpoint: 'publicList', roles: ['anonymous', 'owner', 'other', 'admin'], judge: judgePublicList },
  {
    clause: 'recipes/tags/list-distinct',
    endpoint: 'tags',
    roles: ['anonymous', 'owner', 'other', 'admin'],
    judge: async (run) => {
      if (!is2xx(run.res)) return about(run);
      // Tags of private recipes: who sees them is not shown (recipes/tags/scope-and-shape).
      if (!run.isPublic) return undefined;
      return run.x.inst.api.tagsOf(run.res).includes(run.r.words.tag) ? undefined : `${about(run)}: the public recipe's tag is missing`;
    },
  },
];

async function judgePublicList(run: Run): Promise<string | undefined> {
  const got = await walkPages(run.x.inst.api, '/api/recipes/public', tokenOf(run.x, run.role), {}, { maxPages: 100 });
  if (got.refused) return `${run.call}: ${shown(got.refused)}`;
  // Whether the public list pages, and in which order, is not shown: a public recipe may be on a page the walk
  // does not reach, a private one on no page at all.
  const known = privateIds.get(run.x.inst.api.key) ?? new Set<string>();
  const leaked = idsOf(got.items).filter((id) => known.has(id));
  return leaked.length === 0 ? undefined : `${run.call}: private recipes ${leaked.join(', ')} listed (${got.asked.join(' ; ')})`;
}

/** A slot's calls: each of its roles with each visibility it allows, in a fixed order. */
function pairsOf(slot: Slot): { role: Role; isPublic: boolean }[] {
  const visibilities = slot.isPublic === undefined ? [true, false] : [slot.isPublic];
  return slot.roles.flatMap((role) => visibilities.map((isPublic) => ({ role, isPublic })));
}

/** Rounds of the matrix: enough for the slot with the most pairs to make each once (the others go round again). */
const ROUNDS = Math.max(...SLOTS.map((slot) => pairsOf(slot).length));

interface Outcome {
  problems: string[];
  judged: number;
  /** Why a call of the slot could not be judged (a judge that could not read an answer). */
  unreadable?: string;
}

/** The matrix, run once per recipe manager: each clause's problems and how many calls were judged. */
async function matrix(c: CaseContext): Promise<ReadonlyMap<string, Outcome>> {
  const x = await cast(c);
  return once(x.inst, 'matrix', async () => {
    const outcomes = new Map(SLOTS.map((slot) => [slot.clause, { problems: [], judged: 0 } as Outcome]));
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        SLOTS.map(async (slot) => {
          const pairs = pairsOf(slot);
          const { role, isPublic } = pairs[round % pairs.length]!;
          const outcome = outcomes.get(slot.clause)!;
          const run = await act(x, role, slot.endpoint, isPublic);
          // A judge that cannot read an answer stops its own slot's case only (as `error`).
          const verdict = await slot.judge(run).catch((err: unknown) => {
            if (!(err instanceof Inconclusive)) throw err;
            outcome.unreadable ??= `${run.call}: ${err.message}`;
            return 'unjudged' as const;
          });
          if (verdict === 'unjudged') return;
          outcome.judged++;
          if (verdict !== undefined) outcome.problems.push(verdict);
        }),
      );
    }
    return outcomes;
  });
}

for (const slot of SLOTS) {
  check(`${slot.clause}/access-matrix`, RECIPES, async (t, c) => {
    const outcome = (await matrix(c)).get(slot.clause)!;
    if (outcome.unreadable !== undefined) c.inconclusive(outcome.unreadable);
    if (outcome.judged === 0) c.inconclusive(`no call of the access matrix to ${slot.endpoint} fell under a rule of the clause`);
    t.deepEqual(outcome.problems, [], `${outcome.problems.length} of ${outcome.judged} calls to ${slot.endpoint} broke the clause`);
  });
}

// ---------------------------------------------------------------- the reference's choice (unspecified)

/** What the reference answers another user's or an admin's change of someone else's recipe. */
async function ownershipProblem(run: Run): Promise<string | undefined> {
  if (run.role === 'admin') return is2xx(run.res) ? undefined : `${about(run)}: an admin's change refused`;
  const status = run.isPublic ? 403 : 404;
  if (run.res.status !== status) return `${about(run)}: ${status} expected`;
  return unchanged(run);
}

check('recipes/recipes/ownership/others-change-nothing-admins-may', RECIPES, async (t, c) => {
  const x = await cast(c);
  // Every role × endpoint × visibility, once each.
  const runs = (['other', 'admin'] as const).flatMap((role) =>
    (['patch', 'delete', 'photo', 'stepPhoto'] as const).flatMap((endpoint) => [true, false].map((isPublic) => ({ role, endpoint, isPublic }))),
  );
  const problems = await Promise.all(runs.map(async ({ role, endpoint, isPublic }) => ownershipProblem(await act(x, role, endpoint, isPublic))));
  t.deepEqual(
    problems.filter((p) => p !== undefined),
    [],
  );
});
