// From HTML to a draft, without the network: the fixture pages against their expected drafts, the forms of every
// schema.org value the import reads, the limits, and hostile structured data.
import test from 'ava';
import fc from 'fast-check';
import { extractRecipe } from './extract-recipe.ts';
import { ImportError } from './import-error.ts';
import { DRAFT_LIMITS, type RecipeDraft, UNTITLED } from './recipe-draft.ts';
import { FIXTURES_DIR, fixture } from './test-page-server.ts';
import { readFileSync } from 'node:fs';

const expected = JSON.parse(readFileSync(`${FIXTURES_DIR}expected.json`, 'utf8')) as {
  baseUrl: string;
  pages: Record<string, RecipeDraft | { error: string }>;
};

/** The draft, or the code of the import error, as expected.json writes them. */
function extracted(html: string, url: string): RecipeDraft | { error: string } {
  try {
    return extractRecipe(html, url);
  } catch (error) {
    return { error: error instanceof ImportError ? error.code : String(error) };
  }
}

for (const [page, draft] of Object.entries(expected.pages)) {
  test(`fixture ${page}`, (t) => {
    t.deepEqual(extracted(fixture(page), expected.baseUrl + page), draft);
  });
}

const BASE = 'https://cook.example/r/page.html';
const jsonLdPage = (data: unknown, head = '') =>
  `<html><head>${head}<script type="application/ld+json">${JSON.stringify(data)}</script></head><body></body></html>`;
const recipe = (fields: Record<string, unknown>) => extractRecipe(jsonLdPage({ '@context': 'https://schema.org', '@type': 'Recipe', name: 'R', ...fields }), BASE);

test('JSON-LD wins over microdata, which wins over Open Graph', (t) => {
  const microdata = '<div itemscope itemtype="https://schema.org/Recipe"><span itemprop="name">From microdata</span></div>';
  const og = '<meta property="og:title" content="From Open Graph">';
  const all = `<html><head>${og}<script type="application/ld+json">{"@type":"Recipe","name":"From JSON-LD"}</script></head><body>${microdata}</body></html>`;
  t.like(extractRecipe(all, BASE), { title: 'From JSON-LD', source: 'json-ld' });
  t.like(extractRecipe(`<html><head>${og}</head><body>${microdata}</body></html>`, BASE), { title: 'From microdata', source: 'microdata' });
  t.like(extractRecipe(`<html><head>${og}</head></html>`, BASE), { title: 'From Open Graph', source: 'social' });
});

test('the @type forms: a name, a list, schema: and full-URL names', (t) => {
  for (const type of ['Recipe', ['NewsArticle', 'Recipe'], 'schema:Recipe', 'http://schema.org/Recipe', 'https://schema.org/Recipe']) {
    t.is(extractRecipe(jsonLdPage({ '@type': type, name: 'X' }), BASE).source, 'json-ld', JSON.stringify(type));
  }
  t.is(t.throws(() => extractRecipe(jsonLdPage({ '@type': 'Recipes', name: 'X' }), BASE), { instanceOf: ImportError })?.code, 'no-recipe');
});

test('a Recipe nested in another node (mainEntity) or in arrays of arrays', (t) => {
  t.is(extractRecipe(jsonLdPage({ '@type': 'WebPage', mainEntity: { '@type': 'Recipe', name: 'Deep' } }), BASE).title, 'Deep');
  t.is(extractRecipe(jsonLdPage([[[{ '@type': 'Recipe', name: 'Arrays' }]]]), BASE).title, 'Arrays');
});

// [recipeYield, servings]
const yields: [unknown, number | null][] = [
  ['4 servings', 4],
  [4, 4],
  [['4', '4 servings'], 4],
  ['Serves 6-8', 6],
  ['Makes 2.5 dozen', 3],
  [['a few', '12 cookies'], 12],
  ['0', null],
  ['5000', null],
  [null, null],
];
for (const [value, servings] of yields) {
  test(`recipeYield ${JSON.stringify(value)} → servings ${servings}`, (t) => {
    t.is(recipe({ recipeYield: value }).servings, servings);
  });
}

// [ISO 8601 duration, minutes]
const durations: [unknown, number | null][] = [
  ['PT1H30M', 90],
  ['PT90M', 90],
  ['P0DT45M', 45],
  ['P0Y0M0DT0H35M0S', 35],
  ['PT0.5H', 30],
  ['pt20m', 20],
  ['PT0M', 0],
  ['PT29S', 0],
  ['P1D', 1440],
  ['P1W', 10080],
  ['PT', null],
  ['P', null],
  ['30 minutes', null],
  [30, null],
  ['P2Y', null],
  [['nonsense', 'PT5M'], 5],
];
for (const [value, minutes] of durations) {
  test(`duration ${JSON.stringify(value)} → ${minutes} minutes`, (t) => {
    t.is(recipe({ prepTime: value }).prepMinutes, minutes);
  });
}

// [recipeInstructions, steps]
const instructions: [unknown, string[]][] = [
  ['Mix.\nBake.', ['Mix.', 'Bake.']],
  ['<p>Mix &amp; stir.</p><p>Bake.</p>', ['Mix & stir.', 'Bake.']],
  ['<ol><li>Step 1: Mix.</li><li>2) Bake.</li></ol>', ['Mix.', 'Bake.']],
  [['Mix.', 'Bake.'], ['Mix.', 'Bake.']],
  [[{ '@type': 'HowToStep', text: 'Mix.' }, { '@type': 'HowToStep', name: 'Bake.' }], ['Mix.', 'Bake.']],
  [
    { '@type': 'ItemList', itemListElement: [{ '@type': 'ListItem', position: 2, item: { '@type': 'HowToStep', text: 'Bake.' } }, { '@type': 'ListItem', position: 1, name: 'First', item: { '@type': 'HowToStep', text: 'Mix.' } }] },
    ['Mix.', 'Bake.'],
  ],
  [
    [
      { '@type': 'HowToSection', name: 'Dough', itemListElement: [{ '@type': 'HowToStep', text: 'Knead.' }] },
      { '@type': 'HowToSection', name: 'Bake', itemListElement: [[{ '@type': 'HowToStep', text: 'Shape.' }], 'Bake.'] },
    ],
    ['Knead.', 'Shape.', 'Bake.'],
  ],
  [[{ '@type': 'HowToStep', position: '3', text: 'C' }, { '@type': 'HowToStep', position: 1, text: 'A' }, { '@type': 'HowToStep', position: 2, text: 'B' }], ['A', 'B', 'C']],
  [[{ '@type': 'HowToStep', position: 2, text: 'B' }, { '@type': 'HowToStep', text: 'A' }], ['B', 'A']], // not all positioned: as written
  [{ '@value': 'Only.' }, ['Only.']],
  [[null, '', 7, { '@type': 'HowToStep' }], ['7']],
];
for (const [value, steps] of instructions) {
  test(`recipeInstructions ${JSON.stringify(value).slice(0, 70)}`, (t) => {
    t.deepEqual(recipe({ recipeInstructions: value }).steps, steps);
  });
}

test('keywords: a text or a list, split at commas, each once ignoring case, in order', (t) => {
  t.deepEqual(recipe({ keywords: 'Easy, quick,easy,, Vegan ' }).tags, ['Easy', 'quick', 'Vegan']);
  t.deepEqual(recipe({ keywords: ['a, b', 'B', 'c'] }).tags, ['a', 'b', 'c']);
  t.deepEqual(recipe({ keywords: { '@value': 'x' } }).tags, ['x']);
});

test('images: a URL, an ImageObject, a list, an @graph reference; relative URLs absolute; only http(s)', (t) => {
  t.is(recipe({ image: 'img/a.jpg' }).imageUrl, 'https://cook.example/r/img/a.jpg');
  t.is(recipe({ image: { '@type': 'ImageObject', contentUrl: '//cdn.example/b.jpg' } }).imageUrl, 'https://cdn.example/b.jpg');
  t.is(recipe({ image: ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/c.jpg'] }).imageUrl, 'https://cook.example/c.jpg');
  t.is(recipe({ image: { '@id': '#nowhere' } }).imageUrl, null);
  const graph = { '@graph': [{ '@type': 'Recipe', name: 'G', image: { '@id': '#img' } }, { '@id': '#img', '@type': 'ImageObject', url: 'https://cdn.example/g.jpg' }] };
  t.is(extractRecipe(jsonLdPage(graph), BASE).imageUrl, 'https://cdn.example/g.jpg');
});

test('the title: name, else headline, else the social title, else the page title, else a placeholder', (t) => {
  const bare = { '@type': 'Recipe', recipeIngredient: ['1 egg'] };
  t.is(extractRecipe(jsonLdPage({ ...bare, headline: 'Headline' }), BASE).title, 'Headline');
  t.is(extractRecipe(jsonLdPage(bare, '<meta property="og:title" content="Social">'), BASE).title, 'Social');
  t.is(extractRecipe(jsonLdPage(bare, '<title>Page</title>'), BASE).title, 'Page');
  t.is(extractRecipe(jsonLdPage(bare), BASE).title, UNTITLED);
});

test('fields are cut to the create limits', (t) => {
  const draft = recipe({
    name: 'T'.repeat(500),
    description: 'D'.repeat(6000),
    recipeIngredient: Array.from({ length: 300 }, (_, i) => `${i} eggs`),
    recipeInstructions: Array.from({ length: 150 }, () => 'S'.repeat(6000)),
    keywords: Array.from({ length: 50 }, (_, i) => `tag${i}`).concat('L'.repeat(51)),
  });
  t.is(draft.title.length, DRAFT_LIMITS.titleLength);
  t.is(draft.description?.length, DRAFT_LIMITS.descriptionLength);
  t.is(draft.ingredients.length, DRAFT_LIMITS.ingredients);
  t.is(draft.steps.length, DRAFT_LIMITS.steps);
  t.is(draft.steps[0]?.length, DRAFT_LIMITS.stepLength);
  t.is(draft.tags.length, DRAFT_LIMITS.tags);
  t.is(recipe({ name: `${'x'.repeat(199)}😀` }).title, 'x'.repeat(199)); // never half a surrogate pair
});

test('hostile structured data costs little: deep nesting, a huge @graph, a 5 MB page', (t) => {
  const started = Date.now();
  const deep = `<script type="application/ld+json">${'['.repeat(100_000)}${']'.repeat(100_000)}</script>`;
  t.is(t.throws(() => extractRecipe(deep, BASE), { instanceOf: ImportError })?.code, 'no-recipe');
  const tooDeep = `${'{"child":'.repeat(5000)}{"@type":"Recipe","name":"Too deep"}${'}'.repeat(5000)}`;
  const tooDeepPage = `<script type="application/ld+json">${tooDeep}</script>`;
  t.is(t.throws(() => extractRecipe(tooDeepPage, BASE), { instanceOf: ImportError })?.code, 'no-recipe');
  const graph = { '@graph': Array.from({ length: 200_000 }, (_, i) => ({ '@id': `#n${i}`, '@type': 'Thing' })) };
  t.is(t.throws(() => extractRecipe(jsonLdPage(graph), BASE), { instanceOf: ImportError })?.code, 'no-recipe');
  const big = `<html><head><meta property="og:title" content="Big"></head><body>${'<p>filler &amp; text</p>'.repeat(220_000)}</body></html>`;
  t.is(extractRecipe(big, BASE).title, 'Big');
  t.true(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
});

/** What every draft holds, whatever the page. */
function wellFormed(draft: RecipeDraft): boolean {
  const httpUrl = (url: string | null) => url === null || /^https?:\/\//.test(url);
  const minutes = (m: number | null) => m === null || (Number.isSafeInteger(m) && m >= 0);
  return (
    draft.title.length > 0 &&
    draft.title.length <= DRAFT_LIMITS.titleLength &&
    (draft.description === null || draft.description.length <= DRAFT_LIMITS.descriptionLength) &&
    httpUrl(draft.imageUrl) &&
    (draft.servings === null || (Number.isInteger(draft.servings) && draft.servings >= 1 && draft.servings <= 1000)) &&
    [draft.prepMinutes, draft.cookMinutes, draft.totalMinutes].every(minutes) &&
    draft.ingredients.length <= DRAFT_LIMITS.ingredients &&
    draft.ingredients.every((line) => typeof line === 'string' && line.length > 0 && line.length <= DRAFT_LIMITS.ingredientLength) &&
    draft.steps.length <= DRAFT_LIMITS.steps &&
    draft.steps.every((step) => typeof step === 'string' && step.length > 0 && step.length <= DRAFT_LIMITS.stepLength) &&
    draft.tags.length <= DRAFT_LIMITS.tags &&
    draft.tags.every((tag) => typeof tag === 'string' && tag.length > 0 && tag.length <= DRAFT_LIMITS.tagLength)
  );
}

type Outcome = { kind: 'draft'; draft: RecipeDraft } | { kind: string };
function attempt(html: string): Outcome {
  try {
    return { kind: 'draft', draft: extractRecipe(html, BASE) };
  } catch (error) {
    return { kind: error instanceof ImportError ? error.code : `unexpected: ${String(error)}` };
  }
}
const acceptable = (outcome: Outcome) => ('draft' in outcome ? wellFormed(outcome.draft) : outcome.kind === 'no-recipe');

test('property: any values in a Recipe give a well-formed draft', (t) => {
  const value = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('<p>a &amp; b</p>', 'PT5M', '4 servings', { '@id': '#x' }, { '@value': 3 }));
  const fields = fc.dictionary(
    fc.constantFrom('name', 'headline', 'description', 'image', 'recipeYield', 'prepTime', 'cookTime', 'totalTime', 'recipeIngredient', 'recipeInstructions', 'keywords', 'recipeCategory', '@graph', '@id', 'itemListElement'),
    value,
  );
  fc.assert(
    fc.property(fields, fc.boolean(), (f, typeList) => {
      const node = { ...f, '@type': typeList ? ['Thing', 'Recipe'] : 'Recipe' };
      return acceptable(attempt(jsonLdPage(node)));
    }),
    { numRuns: 1500 },
  );
  t.pass();
});

test('property: any text as a page gives a well-formed draft or no-recipe', (t) => {
  const tags = fc.constantFrom(
    '<script type="application/ld+json">',
    '</script>',
    '{"@type":"Recipe"',
    ',"name":',
    '"x"}',
    '<meta property="og:title" content="',
    '">',
    '<div itemscope itemtype="https://schema.org/Recipe">',
    '<span itemprop="recipeIngredient">',
    '</div>',
    '&amp;',
    '<',
    '"',
  );
  const html = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.array(fc.oneof(tags, fc.string({ maxLength: 5 })), { maxLength: 40 }).map((p) => p.join('')));
  fc.assert(
    fc.property(html, (page) => acceptable(attempt(page))),
    { numRuns: 1500 },
  );
  t.pass();
});
