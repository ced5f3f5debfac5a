import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { registerTokenRepositoryContract } from '../auth/token-repository-contract.ts';
import { openRecipesStore, type RecipesStore } from '../store/index.ts';
import { StoreTokenRepository } from './store-token-repository.ts';

const opened: { store: RecipesStore; folder: string }[] = [];

test.after.always(async () => {
  for (const { store, folder } of opened) {
    await store.close();
    await rm(folder, { recursive: true, force: true });
  }
});

async function openTemp(): Promise<RecipesStore> {
  const folder = await mkdtemp(join(tmpdir(), 'recipes tokens #'));
  const store = await openRecipesStore({ file: join(folder, 'recipes.json'), log: () => {} });
  opened.push({ store, folder });
  return store;
}

registerTokenRepositoryContract(test, 'StoreTokenRepository', async () => new StoreTokenRepository(await openTemp()));

test('StoreTokenRepository: records are on disk, in the document collections, and read back after a reopen', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'recipes tokens #'));
  const file = join(folder, 'recipes.json');
  try {
    const first = await openRecipesStore({ file, log: () => {} });
    const invite = { id: 'i1', kind: 'invite', tokenHash: 'a'.repeat(64), subject: null, createdBy: 'admin', createdAt: 1_000, expiresAt: 9_000 } as const;
    const verify = { id: 'v1', kind: 'verify-email', tokenHash: 'b'.repeat(64), subject: 'u1', createdBy: null, createdAt: 1_000, expiresAt: 9_000 } as const;
    await new StoreTokenRepository(first).put(invite);
    await new StoreTokenRepository(first).put(verify);
    t.deepEqual(Object.keys(first.data.invites), ['i1']);
    t.deepEqual(Object.keys(first.data.tokens), ['b'.repeat(64)]);
    await first.close();
    const second = await openRecipesStore({ file, log: () => {} });
    const repo = new StoreTokenRepository(second);
    t.deepEqual(await repo.find('invite', invite.tokenHash), invite);
    t.deepEqual(await repo.take('verify-email', verify.tokenHash), verify);
    await second.close();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
