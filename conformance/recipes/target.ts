// The recipes suite's view of its target: a `cmd:` command the cases start in a fresh folder (so each start is
// a first run) with PORT, JWT_SECRET, JWT_EXPIRES_IN and APP_URL set by the suite, and the target's payload
// shapes from its description (shapes.ts). A case starts its own recipe manager when it needs a first run or
// its own settings; cases that only need accounts and recipes share one per test file.
import { randomBytes } from 'node:crypto';
import type { CaseContext } from '../harness/case-context.ts';
import type { CaseOptions } from '../harness/check.ts';
import { reportStart } from '../harness/events.ts';
import type { HttpClient } from '../harness/http-client.ts';
import { Inconclusive } from '../harness/inconclusive.ts';
import { launch, type Launched, type LaunchSpec } from '../harness/launch.ts';
import { perFile } from '../harness/per-file.ts';
import { runEnv, type TargetSpec } from '../harness/run-env.ts';
import { RecipesApi } from './api.ts';
import { type Shapes, ShapesError, shapesOf } from './shapes.ts';

export const target: TargetSpec = runEnv.targets['recipes']!;

/** Every case starts the recipe manager itself (a `cmd:` target): a first run needs an empty store. */
export const RECIPES: CaseOptions = { needs: ['launch'] };

/** Cases whose recipe manager must fetch pages the suite serves on 127.0.0.1 (import). */
export const IMPORT: CaseOptions = { needs: ['launch', 'import-loopback'] };

let shapesCache: Shapes | undefined;

/** The target's shapes (its description's `shapes`, else the reference's). */
export function shapes(): Shapes {
  if (shapesCache) return shapesCache;
  try {
    shapesCache = shapesOf(target?.description?.['shapes']);
  } catch (err) {
    if (err instanceof ShapesError) throw new Inconclusive(err.message);
    throw err;
  }
  return shapesCache;
}

/** A JWT secret of the suite's (random per start, 48 bytes as text). */
export const newSecret = (): string => randomBytes(36).toString('base64');

export interface StartOptions {
  /** More environment (undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /** Ports to wait for before the start counts as listening (default PORT's; [] waits for none). */
  listen?: number[];
}

function spec(options: StartOptions, secret: string): LaunchSpec {
  return {
    env: {
      JWT_SECRET: secret,
      JWT_EXPIRES_IN: '7d',
      APP_URL: 'http://127.0.0.1:{port}',
      ...options.env,
    },
    ...(options.listen === undefined ? {} : { listen: options.listen }),
  };
}

export interface Instance {
  readonly url: string;
  readonly http: HttpClient;
  readonly api: RecipesApi;
  readonly launched: Launched;
  /** The JWT_SECRET it was started with (undefined when the case removed it). */
  readonly secret: string | undefined;
}

function instance(c: CaseContext, launched: Launched, env: Record<string, string | undefined>): Instance {
  const url = `http://127.0.0.1:${launched.port}`;
  const http = c.http(url);
  return { url, http, launched, secret: env['JWT_SECRET'], api: new RecipesApi(c, http, shapes(), url, launched.dir) };
}

/** A recipe manager of the case's own, on an empty store, stopped when the case ends. */
export async function start(c: CaseContext, options: StartOptions = {}): Promise<Instance> {
  const s = spec(options, newSecret());
  const launched = await c.launch(s);
  return instance(c, launched, s.env!);
}

const shared = perFile<{ launched: Launched; env: Record<string, string | undefined> }>((x) => x.launched.stop());

/** A recipe manager of the test file, started once under `name`, for cases that only create their own accounts
 * and recipes. Its first admin is made by the first case to ask (RecipesApi.admin). */
export async function sharedInstance(c: CaseContext, name = 'shared', options: StartOptions = {}): Promise<Instance> {
  const started = await reportStart(
    c.id,
    shared(name, async () => {
      const s = spec(options, newSecret());
      return { launched: await launch(target.command!, target.env ?? {}, s), env: s.env! };
    }),
  );
  c.note(`# recipe manager shared by the test file: env ${started.launched.envLine} ${started.launched.commandLine}`);
  return instance(c, started.launched, started.env);
}
