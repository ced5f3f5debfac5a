// The recipe manager's document: one JSON object whose collections are keyed by id (so an update reaches a record
// without scanning, and the serialiser caches each record's JSON), and where it lives.
import { resolve } from 'node:path';
import { type DurableStore, openStore, type StoreOptions } from './durable-store.ts';

export type Role = 'admin' | 'user';

export interface User {
  id: string;
  /** Trimmed and lower-cased. */
  email: string;
  name: string;
  /** argon2 hash; never in an answer. */
  passwordHash: string;
  role: Role;
  isActive: boolean;
  emailVerified: boolean;
  /** Raised by a password reset: bearer tokens carrying an older version are refused (auth/access.ts). */
  tokenVersion: number;
  createdAt: string;
  updatedAt: string;
}

export interface Ingredient {
  name: string;
  quantity?: number;
  unit?: string;
}

export interface Step {
  order: number;
  text: string;
  /** File name in the uploads folder, or null. */
  photo: string | null;
}

export interface Recipe {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  servings: number;
  prepMinutes?: number;
  cookMinutes?: number;
  ingredients: Ingredient[];
  steps: Step[];
  tags: string[];
  /** A category slug. */
  category?: string;
  isPublic: boolean;
  sourceUrl?: string;
  /** File name in the uploads folder, or null. */
  photo: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Invite {
  id: string;
  /** Hash of the token sent in the link. */
  tokenHash: string;
  /** The admin who created it (null when made outside the API). */
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt?: string;
  usedBy?: string;
  revokedAt?: string;
}

export type TokenPurpose = 'verify-email' | 'reset-password';

/** A single-use token, keyed by its hash (the token itself is only in the link). */
export interface OneTimeToken {
  /** Public id (a UUID), not the token. */
  id: string;
  purpose: TokenPurpose;
  userId: string;
  createdAt: string;
  expiresAt: string;
  usedAt?: string;
}

export interface Settings {
  allowRegistration: boolean;
  smtpHost: string;
  smtpPort: number | null;
  smtpUser: string;
  smtpPass: string;
  smtpFrom: string;
}

export interface RecipesData {
  /** Format of the document, for migrations. */
  version: 1;
  users: Record<string, User>;
  recipes: Record<string, Recipe>;
  invites: Record<string, Invite>;
  tokens: Record<string, OneTimeToken>;
  settings: Settings;
  /** Favorites: user id → recipe id → when it was saved. */
  saved: Record<string, Record<string, string>>;
}

export function emptyRecipesData(): RecipesData {
  return {
    version: 1,
    users: {},
    recipes: {},
    invites: {},
    tokens: {},
    // Catalog recipes/settings/defaults.
    settings: { allowRegistration: true, smtpHost: '', smtpPort: null, smtpUser: '', smtpPass: '', smtpFrom: '' },
    saved: {},
  };
}

export const DEFAULT_DB_FILE = 'data/recipes.json';

/** The data file: `RECIPES_DB_FILE`, or `data/recipes.json`, resolved against `cwd`. */
export function recipesDbFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return resolve(cwd, env.RECIPES_DB_FILE || DEFAULT_DB_FILE);
}

export type RecipesStore = DurableStore<RecipesData>;

export function openRecipesStore(
  options: Partial<Omit<StoreOptions<RecipesData>, 'empty'>> = {},
): Promise<RecipesStore> {
  return openStore({ ...options, file: options.file ?? recipesDbFile(), empty: emptyRecipesData });
}
