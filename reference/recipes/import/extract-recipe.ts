// From a page's HTML to a draft, in the order of catalog recipes/import/extraction-precedence: a schema.org Recipe
// in JSON-LD, then in microdata, then the page's social metadata; nothing found is ImportError `no-recipe`.
import { findRecipe } from './find-recipe-node.ts';
import { ImportError } from './import-error.ts';
import { readMetadata } from './read-metadata.ts';
import { draftFromRecipe, draftFromSocial, type RecipeDraft } from './recipe-draft.ts';

/** The draft of the page `html` found at `pageUrl` (relative URLs of the page resolve against it). */
export function extractRecipe(html: string, pageUrl: URL | string): RecipeDraft {
  const url = new URL(pageUrl);
  const page = readMetadata(html, url);
  const inJsonLd = findRecipe(page.jsonLd);
  if (inJsonLd) return draftFromRecipe(inJsonLd.node, inJsonLd.resolve, page, url, 'json-ld');
  const inMicrodata = findRecipe(page.microdata);
  if (inMicrodata) return draftFromRecipe(inMicrodata.node, inMicrodata.resolve, page, url, 'microdata');
  const social = draftFromSocial(page, url);
  if (social) return social;
  throw new ImportError(
    'no-recipe',
    'the page has no schema.org Recipe (JSON-LD or microdata) and no Open Graph or Twitter title to start a draft from',
  );
}
