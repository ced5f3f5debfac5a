// The web pages the import cases have the recipe manager fetch, served by the suite on 127.0.0.1 (the target
// needs the import-loopback capability): a schema.org Recipe in JSON-LD (beside Open Graph tags naming another
// title), one inside @graph with an array @type, one in microdata, a page with Open Graph tags only, a page
// with nothing to import, a huge page, a page that never answers, and an image. Each page carries words of its
// own (random letters) found nowhere else, not even in its URL, so an answer holding such a word holds data
// from that page.
import { perFile } from '../harness/per-file.ts';
import { type ThreadServer, threadServer } from '../harness/thread-server.ts';
import { uniqueWord } from './case-helpers.ts';
import { uniquePng } from './photo-files.ts';

export interface PageWords {
  /** The JSON-LD recipe's name, and a word of its ingredients; the social title beside it. */
  jsonLdTitle: string;
  jsonLdIngredient: string;
  jsonLdSocialTitle: string;
  graphTitle: string;
  microdataTitle: string;
  socialTitle: string;
}

export interface ImportPages {
  /** The address of a page: jsonld, graph, microdata, social, nothing, huge, slow, image. */
  url(page: PageName): string;
  words: PageWords;
}

export type PageName = 'jsonld' | 'graph' | 'microdata' | 'social' | 'nothing' | 'huge' | 'slow' | 'image';

/** How much the huge page sends at most (a target's cap is expected far below). */
const HUGE_BYTES = 64 * 1024 * 1024;
const PIECE = 64 * 1024;

const html = (head: string, body: string) => `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>\n`;
const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

function pagesOf(w: PageWords): Record<string, string> {
  return {
    jsonld: html(
      `<title>A page</title><meta property="og:title" content="Social ${w.jsonLdSocialTitle}">` +
        ld({
          '@context': 'https://schema.org',
          '@type': 'Recipe',
          name: `Lemon tart ${w.jsonLdTitle}`,
          description: 'A sharp lemon tart.',
          recipeYield: '6 servings',
          prepTime: 'PT20M',
          cookTime: 'PT35M',
          recipeIngredient: ['200 g flour', `3 ${w.jsonLdIngredient} lemons`, '100 g butter'],
          recipeInstructions: [
            { '@type': 'HowToStep', text: 'Make the pastry.' },
            { '@type': 'HowToStep', text: 'Bake the tart.' },
          ],
          keywords: 'tart, lemon',
        }),
      '<h1>Lemon tart</h1>',
    ),
    graph: html(
      `<title>A page</title>${ld({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'WebPage', '@id': 'https://example.test/#page', name: 'A page' },
          {
            '@type': ['Recipe', 'NewsArticle'],
            name: `Pea soup ${w.graphTitle}`,
            recipeIngredient: ['500 g peas', '1 l stock'],
            recipeInstructions: 'Boil the peas.\nBlend.',
          },
        ],
      })}`,
      '<h1>Pea soup</h1>',
    ),
    microdata: html(
      '<title>A page</title>',
      `<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Flatbread ${w.microdataTitle}</h1>` +
        '<span itemprop="recipeIngredient">300 g flour</span><span itemprop="recipeIngredient">200 ml water</span>' +
        '<div itemprop="recipeInstructions">Knead and bake.</div></div>',
    ),
    social: html(
      `<title>A page</title><meta property="og:title" content="Grandma's stew ${w.socialTitle}">` +
        '<meta property="og:description" content="A slow stew."><meta property="og:type" content="article">',
      '<p>A story about a stew.</p>',
    ),
    nothing: html('', '<p>No recipe here, and no title either.</p>'),
  };
}

/** The page server, on a thread of its own (thread-server.ts): a page that comes late makes the target's
 * fetch deadline pass. Its pages (workerData): bodies by name, the image, and the huge page's size. */
const PAGES_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { createServer } = require('node:http');
const { bodies, image, hugeBytes, piece } = workerData;

function sendHuge(res) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.write('<!doctype html><html><head><title>Huge</title></head><body>');
  const filler = Buffer.from('<p>filler</p>'.repeat(piece / 13));
  let sent = 0;
  const more = () => {
    while (sent < hugeBytes && !res.destroyed) {
      sent += filler.length;
      if (!res.write(filler)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end('</body></html>');
  };
  more();
}

const server = createServer((req, res) => {
  const name = (req.url || '').split('?')[0].replace(/^\\/pages\\//, '');
  if (name === 'slow') return; // never answers; the connection stays open until the target gives up
  if (name === 'huge') return sendHuge(res);
  if (name === 'image') {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
    return void res.end(Buffer.from(image));
  }
  const body = bodies[name];
  if (body === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    return void res.end('no such page');
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.once('error', (err) => parentPort.postMessage({ error: err.message }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
`;

async function serve(): Promise<{ server: ThreadServer; pages: ImportPages }> {
  const words: PageWords = {
    jsonLdTitle: uniqueWord('pj'),
    jsonLdIngredient: uniqueWord('pi'),
    jsonLdSocialTitle: uniqueWord('ps'),
    graphTitle: uniqueWord('pg'),
    microdataTitle: uniqueWord('pm'),
    socialTitle: uniqueWord('po'),
  };
  const workerData = { bodies: pagesOf(words), image: uniquePng(), hugeBytes: HUGE_BYTES, piece: PIECE };
  const server = await threadServer("the suite's page server", PAGES_THREAD, workerData);
  return { server, pages: { words, url: (page) => `http://127.0.0.1:${server.port}/pages/${page}` } };
}

const shared = perFile<{ server: ThreadServer; pages: ImportPages }>(({ server }) => server.close());

/** The test file's page server (started once). */
export async function importPages(): Promise<ImportPages> {
  return (await shared('pages', serve)).pages;
}
