import test from 'ava';
import { registerTokenRepositoryContract } from './token-repository-contract.ts';
import { MemoryTokenRepository } from './token-repository.ts';

registerTokenRepositoryContract(test, 'MemoryTokenRepository', async () => new MemoryTokenRepository());
