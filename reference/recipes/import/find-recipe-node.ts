// The schema.org Recipe of a page's structured data, wherever it sits: a top-level object, an array of them, an
// @graph, nested in another node (mainEntity, a WebPage's item) or in arrays of arrays; its @type a name or a list
// ["Recipe", "NewsArticle"]. The walk is bounded in depth and in nodes, so a hostile page costs little.
import { isNode, type Resolve, type SchemaNode, typesOf } from './schema-values.ts';

const MAX_DEPTH = 32;
const MAX_VISITS = 100_000;

export interface FoundRecipe {
  readonly node: SchemaNode;
  /** Resolves references to the nodes of the same structured data (`{"@id": "#image"}` in an @graph). */
  readonly resolve: Resolve;
}

/** The first Recipe in document order (depth first), or null. */
export function findRecipe(roots: readonly unknown[]): FoundRecipe | null {
  const byId = new Map<string, SchemaNode>();
  let recipe: SchemaNode | null = null;
  const stack: [value: unknown, depth: number][] = [[roots, 0]];
  for (let visits = 0; stack.length > 0 && visits < MAX_VISITS; visits++) {
    const [value, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) continue;
    const children = Array.isArray(value) ? value : isNode(value) ? visitNode(value) : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], depth + 1]);
  }
  return recipe && { node: recipe, resolve };

  function visitNode(node: SchemaNode): unknown[] {
    const id = node['@id'];
    if (typeof id === 'string' && Object.keys(node).length > 1 && !byId.has(id)) byId.set(id, node);
    if (!recipe && typesOf(node).includes('Recipe')) recipe = node;
    return Object.entries(node)
      .filter(([key, child]) => key !== '@context' && typeof child === 'object' && child !== null)
      .map(([, child]) => child);
  }

  function resolve(value: unknown): unknown {
    if (!isNode(value) || typeof value['@id'] !== 'string' || Object.keys(value).length !== 1) return value;
    return byId.get(value['@id']) ?? value;
  }
}
