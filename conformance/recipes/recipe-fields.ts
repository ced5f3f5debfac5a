// Recipes as the cases write them: every field the document names (ingredients, ordered steps, tags, a
// category, isPublic) filled with words of their own, so that what a target answers can be told apart without
// knowing its shape (a word found in the answer's text came from that recipe).
import type { RecipeFields, RecipesApi } from './api.ts';
import { uniqueWord } from './case-helpers.ts';

export interface WordedRecipe {
  fields: RecipeFields;
  /** The word of the title, of each ingredient, of each step (in order) and the tag. */
  words: { title: string; ingredients: string[]; steps: string[]; tag: string };
}

/** A full recipe whose texts carry fresh words; `category` as the target names one (api.category). */
/** `tags`: more tags besides the recipe's own word. */
export function wordedRecipe(options: { isPublic?: boolean; category?: string; servings?: number; tags?: string[] } = {}): WordedRecipe {
  const words = {
    title: uniqueWord('rt'),
    ingredients: [uniqueWord('ri'), uniqueWord('ri')],
    steps: [uniqueWord('rs'), uniqueWord('rs'), uniqueWord('rs')],
    tag: uniqueWord('rg'),
  };
  const fields: RecipeFields = {
    title: `Conformance stew ${words.title}`,
    description: 'A stew of the conformance suite.',
    servings: options.servings ?? 4,
    ingredients: [
      { name: `carrots ${words.ingredients[0]}`, quantity: 300, unit: 'g' },
      { name: `onions ${words.ingredients[1]}`, quantity: 2 },
    ],
    steps: words.steps.map((w, i) => ({ order: i + 1, text: `Step text ${w}.` })),
    tags: [words.tag, ...(options.tags ?? [])],
    ...(options.category === undefined ? {} : { category: options.category }),
    ...(options.isPublic === undefined ? {} : { isPublic: options.isPublic }),
  };
  return { fields, words };
}

export const recipePath = (id: string | number): string => `/api/recipes/${encodeURIComponent(String(id))}`;

/** Creates a worded recipe as `token`'s user; its id and words. */
export async function createWorded(api: RecipesApi, token: string, options: Parameters<typeof wordedRecipe>[0] = {}): Promise<WordedRecipe & { id: string }> {
  const worded = wordedRecipe(options);
  const made = await api.recipe(token, worded.fields);
  return { ...worded, id: String(made.id) };
}

/** Where each word first appears in `text` (-1: missing). */
export const positions = (text: string, words: readonly string[]): number[] => words.map((w) => text.indexOf(w));
