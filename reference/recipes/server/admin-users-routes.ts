// The recipe manager's admin users (list, update role/isActive, delete) (to be built).
import type { Polka } from 'polka';
import type { ServerContext } from './server-context.ts';

export function mountAdminUsers(_app: Polka, _ctx: ServerContext): void {}
