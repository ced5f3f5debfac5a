// An ingredient line in the store's shape {name, quantity?, unit?} (catalog recipes/recipes/payload), for an
// imported draft's lines. That shape has no range: a range line is kept whole as the name, so nothing of it is
// lost (and it is not scaled numerically).
import { type ParsedIngredient, parseIngredient } from './parse-ingredient-line.ts';

export interface IngredientFields {
  name: string;
  quantity?: number;
  unit?: string;
}

export function toIngredientFields(ingredient: string | ParsedIngredient): IngredientFields {
  const parsed = typeof ingredient === 'string' ? parseIngredient(ingredient) : ingredient;
  const whole = parsed.line.trim().replace(/\s+/g, ' ');
  if (parsed.quantity === null || parsed.quantity2 !== null || parsed.isGroupHeader || !parsed.description) {
    return { name: whole };
  }
  return parsed.unit
    ? { name: parsed.description, quantity: parsed.quantity, unit: parsed.unit }
    : { name: parsed.description, quantity: parsed.quantity };
}
