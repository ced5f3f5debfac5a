// The recipe categories (catalog recipes/categories/source-and-shape): a fixed seeded set, answered as
// {id, slug, name} sorted by name. A recipe names one by slug. The ids are fixed so they never change between
// starts or installations.

export interface Category {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
}

const SEEDED: readonly Category[] = [
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a101', slug: 'breakfast', name: 'Breakfast' },
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a102', slug: 'lunch', name: 'Lunch' },
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a103', slug: 'dinner', name: 'Dinner' },
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a104', slug: 'dessert', name: 'Dessert' },
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a105', slug: 'snack', name: 'Snack' },
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a106', slug: 'drink', name: 'Drink' },
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a107', slug: 'side', name: 'Side' },
  { id: '0b3c1f6e-3f51-4c39-9a52-4a4fd0b3a108', slug: 'other', name: 'Other' },
];

/** The answer of GET /api/categories, built once. */
export const CATEGORIES: readonly Category[] = [...SEEDED].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const SLUGS: ReadonlySet<string> = new Set(SEEDED.map((category) => category.slug));

export function isCategorySlug(value: unknown): value is string {
  return typeof value === 'string' && SLUGS.has(value);
}

/** The slug of a category written by a page ("Dessert", "Main Dishes"…), or null when none matches. */
export function categorySlugFor(text: string | null): string | null {
  if (text === null) return null;
  const wanted = text.trim().toLowerCase();
  const found = SEEDED.find((category) => category.slug === wanted || category.name.toLowerCase() === wanted);
  return found?.slug ?? null;
}
