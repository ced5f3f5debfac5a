import test from 'ava';
import fc from 'fast-check';
import { type AccountState, adminRefusal, leavesNoActiveAdmin, loginRefusal, type Role, sessionRefusal } from './access.ts';
import type { JwtClaims } from './jwt-tokens.ts';

const user = (over: Partial<AccountState> = {}): AccountState => ({
  id: 'u-1',
  role: 'user',
  isActive: true,
  emailVerified: true,
  tokenVersion: 0,
  ...over,
});
const claims = (over: Partial<JwtClaims> = {}): JwtClaims => ({ sub: 'u-1', role: 'user', tv: 0, iat: 1, exp: 2, ...over });

test('login: needs an active account and a verified email; a disabled account is reported first', (t) => {
  t.is(loginRefusal(user()), undefined);
  t.is(loginRefusal(user({ emailVerified: false })), 'email-not-verified');
  t.is(loginRefusal(user({ isActive: false })), 'account-disabled');
  t.is(loginRefusal(user({ isActive: false, emailVerified: false })), 'account-disabled');
});

test('session: refused for a deleted or disabled user or an older token version; reactivation restores it', (t) => {
  t.is(sessionRefusal(claims(), user()), undefined);
  t.is(sessionRefusal(claims(), undefined), 'unknown-user');
  t.is(sessionRefusal(claims({ sub: 'u-2' }), user()), 'unknown-user');
  t.is(sessionRefusal(claims(), user({ isActive: false })), 'account-disabled');
  t.is(sessionRefusal(claims({ tv: 0 }), user({ tokenVersion: 1 })), 'token-revoked');
  t.is(sessionRefusal(claims({ tv: 1 }), user({ tokenVersion: 1 })), undefined);
});

test('session decisions read the stored role, not the claim', (t) => {
  t.is(sessionRefusal(claims({ role: 'admin' }), user({ role: 'user' })), undefined);
  t.is(adminRefusal(user({ role: 'user' })), 'admin-required');
});

test('admin routes: active admins only', (t) => {
  t.is(adminRefusal(user({ role: 'admin' })), undefined);
  t.is(adminRefusal(user({ role: 'user' })), 'admin-required');
  t.is(adminRefusal(user({ role: 'admin', isActive: false })), 'admin-required');
});

test('property: a change is refused exactly when it takes the last active admin away', (t) => {
  const role = fc.constantFrom<Role>('admin', 'user');
  const users = fc.uniqueArray(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), role, isActive: fc.boolean() }), {
    selector: (u) => u.id,
    maxLength: 4,
  });
  const change = fc.record(
    { id: fc.constantFrom('a', 'b', 'c', 'd', 'x'), role, isActive: fc.boolean(), delete: fc.boolean() },
    { requiredKeys: ['id'] },
  );
  fc.assert(
    fc.property(users, change, (list, c) => {
      const states = list.map((u) => user(u));
      const activeAdmins = (all: AccountState[]) => all.filter((u) => u.role === 'admin' && u.isActive).length;
      const after = states.flatMap((u) =>
        u.id !== c.id ? [u] : c.delete ? [] : [{ ...u, role: c.role ?? u.role, isActive: c.isActive ?? u.isActive }],
      );
      return leavesNoActiveAdmin(states, c) === (activeAdmins(states) > 0 && activeAdmins(after) === 0);
    }),
  );
  t.pass();
});
