// Localization files as syntax trees (jsonc-parser in strict JSON mode) rather than JS objects: object key
// order survives exactly (JS objects move integer-like keys first) and numbers keep their source text
// (no precision lost on large integers).
import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { invalidArgument } from '../core/errors.ts';

export type { Node };
export type JsonPath = (string | number)[];

const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/** Parses `text` as strict JSON; INVALID_ARGUMENT naming `field` otherwise. */
export function parseJson(text: string, field: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, STRICT);
  const first = errors[0];
  if (first) throw invalidArgument(`${field} is not valid JSON: ${printParseErrorCode(first.error)} at offset ${first.offset}`);
  if (!root) throw invalidArgument(`${field} is not valid JSON: no value`);
  return root;
}

export interface Leaf {
  node: Node;
  path: JsonPath;
  text: string;
}

/** Every leaf string of the tree, in document order, with its path. */
export function leafStrings(root: Node): Leaf[] {
  const leaves: Leaf[] = [];
  const visit = (node: Node, path: JsonPath): void => {
    if (node.type === 'string') leaves.push({ node, path, text: node.value as string });
    else if (node.type === 'array') {
      node.children?.forEach((child, i) => {
        visit(child, [...path, i]);
      });
    } else if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) visit(value, [...path, key.value as string]);
      }
    }
  };
  visit(root, []);
  return leaves;
}

/** The string at `path` in another document, if there is one. */
export function stringAt(root: Node | undefined, path: JsonPath): string | undefined {
  if (!root) return undefined;
  const node = path.length === 0 ? root : findNodeAtLocation(root, path);
  return node?.type === 'string' ? (node.value as string) : undefined;
}

/** Writes the tree back like JSON.stringify(value, null, 2), with `replacements` for some string nodes. */
export function serialize(root: Node, source: string, replacements: Map<Node, string>): string {
  const write = (node: Node, indent: string): string => {
    const inner = `${indent}  `;
    switch (node.type) {
      case 'string':
        return JSON.stringify(replacements.get(node) ?? (node.value as string));
      case 'number':
        return source.slice(node.offset, node.offset + node.length);
      case 'boolean':
      case 'null':
        return String(node.value);
      case 'array': {
        const items = node.children ?? [];
        if (items.length === 0) return '[]';
        return `[\n${items.map((item) => inner + write(item, inner)).join(',\n')}\n${indent}]`;
      }
      case 'object': {
        const properties = node.children ?? [];
        if (properties.length === 0) return '{}';
        const lines = properties.map((property) => {
          const [key, value] = property.children!;
          return `${inner}${JSON.stringify(key!.value)}: ${write(value!, inner)}`;
        });
        return `{\n${lines.join(',\n')}\n${indent}}`;
      }
      default:
        throw new Error(`unexpected JSON node ${node.type}`);
    }
  };
  return write(root, '');
}
