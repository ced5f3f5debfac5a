// A recipe as every answer shows it (catalog recipes/recipes/payload, servings-scaling, recipe-photos/serving,
// saved/listing): the stored fields with null for the ones not set, photoUrl for the main photo and each step,
// saved for the caller, and, for GET /api/recipes/:id?servings=N, the ingredient quantities scaled to N servings
// (ingredients/servingsFactor; the stored recipe is not touched).
import { servingsFactor } from '../ingredients/index.ts';
import type { DeepReadonly, Recipe } from '../store/index.ts';
import { photoUrl } from './uploads-files.ts';

export function recipeView(recipe: DeepReadonly<Recipe>, saved: boolean, servings?: number) {
  const factor = servings === undefined || servings === recipe.servings ? 1 : servingsFactor(recipe.servings, servings);
  return {
    id: recipe.id,
    ownerId: recipe.ownerId,
    title: recipe.title,
    description: recipe.description,
    servings: servings ?? recipe.servings,
    prepMinutes: recipe.prepMinutes ?? null,
    cookMinutes: recipe.cookMinutes ?? null,
    ingredients: recipe.ingredients.map((ingredient) => ({
      name: ingredient.name,
      quantity: ingredient.quantity === undefined ? null : ingredient.quantity * factor,
      unit: ingredient.unit ?? null,
    })),
    steps: recipe.steps.map((step) => ({ order: step.order, text: step.text, photoUrl: photoUrl(step.photo) })),
    tags: recipe.tags,
    category: recipe.category ?? null,
    isPublic: recipe.isPublic,
    sourceUrl: recipe.sourceUrl ?? null,
    photoUrl: photoUrl(recipe.photo),
    saved,
    createdAt: recipe.createdAt,
    updatedAt: recipe.updatedAt,
  };
}

export type RecipeView = ReturnType<typeof recipeView>;
