// What the faulty recipe manager's rules share: the reference's context (its store and token services), who a
// request's bearer token belongs to, tokens of other users, and keeping a record as it was around a request
// (a change the reference makes and the fault takes back).
import type { IncomingHttpHeaders } from 'node:http';
import type { ServerContext } from '../../../reference/recipes/server/server-context.ts';
import type { DeepReadonly, RecipesData, User } from '../../../reference/recipes/store/index.ts';
import type { RecipesFault } from './faulty-recipes-faults.ts';
import type { Exchange, Reply, Rule } from './faulty-recipes-front.ts';

export type { Exchange, Reply, Rule };

export class Faulty {
  readonly on: (fault: RecipesFault) => boolean;
  readonly ctx: ServerContext;

  constructor(on: (fault: RecipesFault) => boolean, ctx: ServerContext) {
    this.on = on;
    this.ctx = ctx;
  }

  get data(): DeepReadonly<RecipesData> {
    return this.ctx.store.data;
  }

  /** The stored user of the request's bearer token, if it verifies. */
  async caller(headers: IncomingHttpHeaders): Promise<DeepReadonly<User> | undefined> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
    if (token === undefined) return undefined;
    try {
      const claims = await this.ctx.jwt.verify(token);
      return this.data.users[claims.sub];
    } catch {
      return undefined;
    }
  }

  /** A bearer token of `user`. */
  async tokenOf(user: DeepReadonly<User>): Promise<string> {
    return this.ctx.jwt.issue(user);
  }

  /** The first active admin, if any. */
  admin(): DeepReadonly<User> | undefined {
    return Object.values(this.data.users).find((u) => u.role === 'admin' && u.isActive);
  }

  /** Sends the request as `user` (its Authorization replaced). */
  async actAs(x: Exchange, user: DeepReadonly<User>): Promise<void> {
    x.headers.authorization = `Bearer ${await this.tokenOf(user)}`;
  }

  /** The request body as a JSON object (undefined when it is not one). */
  static jsonBody(x: Exchange): Record<string, unknown> | undefined {
    try {
      const value: unknown = JSON.parse(x.body?.toString('utf8') ?? '');
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  static setJsonBody(x: Exchange, body: Record<string, unknown>): void {
    x.body = Buffer.from(JSON.stringify(body));
  }

  /**
   * A rule that lets the reference do what the request asks, then puts back what `select` read before it (a
   * successful change that is not kept). `restore` gets the draft and the copy (undefined: there was none).
   */
  undo<T>(
    fault: RecipesFault,
    method: string,
    path: RegExp,
    select: (data: DeepReadonly<RecipesData>, x: Exchange) => T | undefined,
    restore: (draft: RecipesData, copy: T | undefined, x: Exchange) => void,
  ): Rule {
    const { store } = this.ctx;
    return {
      fault,
      method,
      path,
      request: (x) => {
        const value = select(store.data, x);
        x.kept.set(fault, value === undefined ? undefined : structuredClone(value));
        return undefined;
      },
      answer: async (json, status, x) => {
        if (status >= 200 && status < 300) await store.update((draft) => restore(draft, x.kept.get(fault) as T | undefined, x));
        return json;
      },
    };
  }
}

/** Every object inside `json` (itself included), depth first. */
export function* objectsIn(json: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(json)) for (const item of json) yield* objectsIn(item);
  else if (typeof json === 'object' && json !== null) {
    yield json as Record<string, unknown>;
    for (const value of Object.values(json)) yield* objectsIn(value);
  }
}

export const notFound = (what = 'Not found'): Reply => ({ status: 404, json: { error: what } });
