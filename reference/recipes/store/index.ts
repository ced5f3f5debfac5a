// The recipe manager's durable store: see reference/recipes/README.md, "Storage".

// Public: what the server uses.
export {
  type DeepReadonly,
  DurableStore,
  openStore,
  type StoreOptions,
  type StoreStats,
  type Updater,
} from './durable-store.ts';
export {
  DEFAULT_DB_FILE,
  emptyRecipesData,
  type Ingredient,
  type Invite,
  type OneTimeToken,
  openRecipesStore,
  type Recipe,
  type RecipesData,
  type RecipesStore,
  recipesDbFile,
  type Role,
  type Settings,
  type Step,
  type TokenPurpose,
  type User,
} from './recipes-data.ts';
export { StoreError, type StoreErrorCode } from './store-error.ts';

// Internal (tests and the benchmark): the write protocol's steps and file names.
export { tempFileOf, type WriteStep, type WriteTrace } from './durable-json-file.ts';
