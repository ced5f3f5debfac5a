// A page's metadata as htmlmetaparser reads it while htmlparser2 walks the HTML: JSON-LD scripts (unparsable ones
// skipped), microdata items, RDFa (where Open Graph's property= tags land), Twitter and plain HTML meta tags.
import { Handler, type Result } from 'htmlmetaparser';
import { Parser } from 'htmlparser2';
import { isNode, literal, type SchemaNode } from './schema-values.ts';

export interface PageMetadata {
  readonly jsonLd: readonly unknown[];
  readonly microdata: readonly unknown[];
  readonly social: SocialMetadata;
  /** The <title>. */
  readonly htmlTitle: string | null;
  readonly htmlDescription: string | null;
}

/** Open Graph first, Twitter card tags as the fallback (by name= or property=). */
export interface SocialMetadata {
  readonly title: string | null;
  readonly description: string | null;
  readonly image: string | null;
}

export function readMetadata(html: string, pageUrl: URL): PageMetadata {
  let result: Result | undefined;
  const handler = new Handler(
    (error, found) => {
      if (!error) result = found;
    },
    { url: pageUrl.href },
  );
  const parser = new Parser(handler, { decodeEntities: true });
  parser.write(html);
  parser.end();
  const rdfa = (result?.rdfa ?? []).filter(isNode);
  const twitter = result?.twitter ?? {};
  const first = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v.trim() !== '')?.trim() ?? null;
  return {
    jsonLd: result?.jsonld ?? [],
    microdata: result?.microdata ?? [],
    social: {
      title: first(property(rdfa, 'og:title'), twitter.title, property(rdfa, 'twitter:title')),
      description: first(property(rdfa, 'og:description'), twitter.description, property(rdfa, 'twitter:description')),
      image: first(
        property(rdfa, 'og:image'),
        property(rdfa, 'og:image:url'),
        property(rdfa, 'og:image:secure_url'),
        twitter.image,
        twitter['image:src'],
        property(rdfa, 'twitter:image'),
      ),
    },
    htmlTitle: first(result?.html?.title),
    htmlDescription: first(result?.html?.description),
  };
}

/** The first text of an RDFa property in any node (htmlmetaparser keeps each as a list of literals). */
function property(nodes: readonly SchemaNode[], name: string): string | undefined {
  for (const node of nodes) {
    const value = node[name];
    const text = (Array.isArray(value) ? value : [value]).map(literal).find((v) => typeof v === 'string' && v.trim());
    if (typeof text === 'string') return text;
  }
  return undefined;
}
