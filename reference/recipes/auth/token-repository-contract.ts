// The behaviour every TokenRepository must have, as ava tests: run it against MemoryTokenRepository here and
// against the store-backed repository wherever that one is tested (registerTokenRepositoryContract(test, …)).
import type { TestFn } from 'ava';
import type { OneTimeKind, OneTimeTokenRecord, TokenRepository } from './token-repository.ts';

let serial = 0;
function record(kind: OneTimeKind, subject: string | null, expiresAt = 2_000): OneTimeTokenRecord {
  serial++;
  return {
    id: `id-${serial}`,
    kind,
    tokenHash: serial.toString(16).padStart(64, '0'),
    subject,
    createdBy: null,
    createdAt: 1_000,
    expiresAt,
  };
}

const byId = (records: OneTimeTokenRecord[]) => [...records].sort((a, b) => (a.id < b.id ? -1 : 1));

export function registerTokenRepositoryContract(test: TestFn, name: string, make: () => Promise<TokenRepository>): void {
  test(`${name}: put, find and take by kind and hash; take removes`, async (t) => {
    const repo = await make();
    const r = record('invite', null);
    await repo.put(r);
    t.deepEqual(await repo.find('invite', r.tokenHash), r);
    t.is(await repo.find('verify-email', r.tokenHash), undefined);
    t.is(await repo.take('reset-password', r.tokenHash), undefined, 'another kind is left alone');
    t.deepEqual(await repo.take('invite', r.tokenHash), r);
    t.is(await repo.take('invite', r.tokenHash), undefined);
    t.is(await repo.find('invite', r.tokenHash), undefined);
  });

  test(`${name}: concurrent takes of one record, exactly one gets it`, async (t) => {
    const repo = await make();
    const r = record('reset-password', 'u');
    await repo.put(r);
    const taken = await Promise.all(Array.from({ length: 16 }, () => repo.take('reset-password', r.tokenHash)));
    t.is(taken.filter((x) => x !== undefined).length, 1);
  });

  test(`${name}: put with replace drops the same kind and subject only`, async (t) => {
    const repo = await make();
    const old = record('reset-password', 'u');
    const otherUser = record('reset-password', 'v');
    const otherKind = record('verify-email', 'u');
    for (const r of [old, otherUser, otherKind]) await repo.put(r);
    const fresh = record('reset-password', 'u');
    await repo.put(fresh, { replace: true });
    t.deepEqual(byId(await repo.list('reset-password')), byId([otherUser, fresh]));
    t.deepEqual(await repo.list('verify-email'), [otherKind]);
  });

  test(`${name}: remove by kind and id, removeSubject, removeExpired`, async (t) => {
    const repo = await make();
    const a = record('invite', null, 1_500);
    const b = record('invite', null, 3_000);
    const c = record('verify-email', 'u', 3_000);
    const d = record('reset-password', 'u', 3_000);
    for (const r of [a, b, c, d]) await repo.put(r);
    t.false(await repo.remove('verify-email', b.id));
    t.true(await repo.remove('invite', b.id));
    t.false(await repo.remove('invite', b.id));
    t.is(await repo.removeSubject('u'), 2);
    t.is(await repo.removeExpired(1_499), 0);
    t.is(await repo.removeExpired(1_500), 1);
    t.deepEqual(await repo.list('invite'), []);
  });
}
