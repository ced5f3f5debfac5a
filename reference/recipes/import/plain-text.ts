// Text out of structured data: pages put HTML and entities inside JSON-LD strings ("Mix &amp; stir",
// "<p>Preheat…</p>"), and a script's content is never decoded by the HTML parser. htmlparser2 reads them here.
import { Parser } from 'htmlparser2';

/** Elements that end a line of text. */
const BLOCKS: ReadonlySet<string> = new Set(['br', 'p', 'div', 'li', 'ol', 'ul', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article']);
const HIDDEN: ReadonlySet<string> = new Set(['script', 'style', 'template']);

/** The text of `value` as lines: tags removed, entities decoded, each line's whitespace collapsed, empty lines
 * dropped. */
export function textLines(value: string): string[] {
  const raw = /[<&]/.test(value) ? htmlText(value) : value;
  return raw
    .split(/[\r\n\u2028\u2029]+/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** The text of `value` on one line. */
export function plainText(value: string): string {
  return textLines(value).join(' ');
}

function htmlText(html: string): string {
  let text = '';
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        else if (BLOCKS.has(name)) text += '\n';
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCKS.has(name)) text += '\n';
      },
      ontext(data) {
        if (!hidden) text += data;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return text;
}
