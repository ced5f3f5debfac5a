// The draft an import answers: the recipe create shape's fields (catalog recipes/import/request-and-result),
// filled from a schema.org Recipe node or, failing that, from the page's social metadata, and cut to the create
// limits (catalog recipes/limits/recipe-size) so the draft can be posted back as it is.
import { MAX_LINE_LENGTH } from '../ingredients/index.ts';
import type { PageMetadata } from './read-metadata.ts';
import {
  absoluteUrl,
  cut,
  durationMinutes,
  firstText,
  imageUrl,
  instructionSteps,
  keywordList,
  type Resolve,
  type SchemaNode,
  servingsCount,
  texts,
} from './schema-values.ts';

/** Where the draft came from. */
export type DraftSource = 'json-ld' | 'microdata' | 'social';

export interface RecipeDraft {
  title: string;
  description: string | null;
  /** Absolute http(s) URL of the recipe's image. */
  imageUrl: string | null;
  /** A whole number from 1 to 1000, from recipeYield. */
  servings: number | null;
  /** Whole minutes, from the ISO 8601 durations prepTime, cookTime and totalTime. */
  prepMinutes: number | null;
  cookMinutes: number | null;
  totalMinutes: number | null;
  /** recipeIngredient lines as written (one line each, tags removed, entities decoded). */
  ingredients: string[];
  /** recipeInstructions flattened into steps, in order. */
  steps: string[];
  /** keywords, each once. */
  tags: string[];
  /** The first recipeCategory as written (the server maps it to one of its categories). */
  category: string | null;
  /** The page's URL after redirects. */
  sourceUrl: string;
  source: DraftSource;
}

export const DRAFT_LIMITS = {
  titleLength: 200,
  descriptionLength: 5000,
  ingredients: 200,
  ingredientLength: MAX_LINE_LENGTH,
  steps: 100,
  stepLength: 5000,
  tags: 20,
  tagLength: 50,
} as const;

/** Used when neither the recipe nor the page has a title. */
export const UNTITLED = 'Untitled recipe';

export function draftFromRecipe(
  recipe: SchemaNode,
  resolve: Resolve,
  page: PageMetadata,
  pageUrl: URL,
  source: 'json-ld' | 'microdata',
): RecipeDraft {
  const text = (value: unknown) => firstText(value, resolve);
  const title = text(recipe.name) ?? text(recipe.headline) ?? page.social.title ?? page.htmlTitle ?? UNTITLED;
  const description = text(recipe.description) ?? page.social.description ?? page.htmlDescription;
  const image = imageUrl(recipe.image, resolve, pageUrl) ?? (page.social.image && absoluteUrl(page.social.image, pageUrl));
  const category = text(recipe.recipeCategory)?.split(',')[0]?.trim() || null;
  return {
    title: cut(title, DRAFT_LIMITS.titleLength),
    description: description && cut(description, DRAFT_LIMITS.descriptionLength),
    imageUrl: image ?? null,
    servings: servingsCount(recipe.recipeYield ?? recipe.yield, resolve),
    prepMinutes: durationMinutes(recipe.prepTime, resolve),
    cookMinutes: durationMinutes(recipe.cookTime, resolve),
    totalMinutes: durationMinutes(recipe.totalTime, resolve),
    ingredients: texts(recipe.recipeIngredient ?? recipe.ingredients, resolve)
      .slice(0, DRAFT_LIMITS.ingredients)
      .map((line) => cut(line, DRAFT_LIMITS.ingredientLength)),
    steps: instructionSteps(recipe.recipeInstructions, resolve, { count: DRAFT_LIMITS.steps, length: DRAFT_LIMITS.stepLength }),
    tags: keywordList(recipe.keywords, resolve, { count: DRAFT_LIMITS.tags, length: DRAFT_LIMITS.tagLength }),
    category: category && cut(category, DRAFT_LIMITS.tagLength),
    sourceUrl: pageUrl.href,
    source,
  };
}

/** A minimal draft from Open Graph / Twitter tags — title, description, image — or null without a social title. */
export function draftFromSocial(page: PageMetadata, pageUrl: URL): RecipeDraft | null {
  const { title, description, image } = page.social;
  if (!title) return null;
  const text = (value: string) => firstText(value, (v) => v);
  const plainTitle = text(title);
  if (!plainTitle) return null;
  const plainDescription = description ? text(description) : page.htmlDescription && text(page.htmlDescription);
  return {
    title: cut(plainTitle, DRAFT_LIMITS.titleLength),
    description: plainDescription ? cut(plainDescription, DRAFT_LIMITS.descriptionLength) : null,
    imageUrl: image ? absoluteUrl(image, pageUrl) : null,
    servings: null,
    prepMinutes: null,
    cookMinutes: null,
    totalMinutes: null,
    ingredients: [],
    steps: [],
    tags: [],
    category: null,
    sourceUrl: pageUrl.href,
    source: 'social',
  };
}
