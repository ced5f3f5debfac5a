// The recipe manager's recipes CRUD, list query, public list, tags, categories, favorites, servings scaling, import-url, photos and /uploads (to be built).
import type { Polka } from 'polka';
import type { ServerContext } from './server-context.ts';

export function mountRecipes(_app: Polka, _ctx: ServerContext): void {}
