// The recipe manager's admin invites (create, list active, revoke) (to be built).
import type { Polka } from 'polka';
import type { ServerContext } from './server-context.ts';

export function mountInvites(_app: Polka, _ctx: ServerContext): void {}
