// A recipe of about one kilobyte of JSON, for the store's tests, its writer process and the benchmark.
import type { Recipe } from './recipes-data.ts';

/** About one kilobyte of JSON. */
export function sampleRecipe(id: string, ownerId: string): Recipe {
  const at = new Date(0).toISOString();
  return {
    id,
    ownerId,
    title: `Recipe ${id}`,
    description: 'A recipe of the store tests, about one kilobyte of JSON once its steps are counted. '.repeat(3),
    servings: 4,
    ingredients: Array.from({ length: 6 }, (_, i) => ({ name: `ingredient ${i}`, quantity: 1.5, unit: 'cup' })),
    steps: Array.from({ length: 4 }, (_, i) => ({ order: i + 1, text: `Stir, then wait ${i + 1} minutes.`, photo: null })),
    tags: ['test', 'store'],
    category: 'dinner',
    isPublic: false,
    photo: null,
    createdAt: at,
    updatedAt: at,
  };
}
