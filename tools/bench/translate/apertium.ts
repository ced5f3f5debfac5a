// `apertium-throughput`: words/s of Apertium eng-spa through the service against the bare `apertium`
// command on the same English corpus (one sentence per line). Service: a fresh server per round, a
// warm-up call (starts its kept-alive pipeline), then one TranslateLocalization call with the sentences
// as a JSON array and TranslateText per sentence with a few concurrent calls. Bare: `apertium -u eng-spa
// < corpus > out`, wall time with its start-up, and start-up-free: minus the time of a 1-line run. The
// two sides alternate their order each round; each series' median is used. The service, its pipeline and
// the bare command run on core 0, the client on core 1.
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApertiumResult } from './client.ts';
import { englishSentences, wordCount } from './corpus.ts';
import { median } from '../peers.ts';
import { runClient, startServer, TMP, timeCommand } from './processes.ts';

const SENTENCES = 450;
const CONCURRENCY = 4;
const GOAL = 0.9;
const BARE = ['apertium', '-u', 'eng-spa'];

interface Series {
  batch: number[];
  text: number[];
  textP50: number[];
  textP99: number[];
  bare: number[];
  bareFree: number[];
  startup: number[];
}

async function bare(input: string, output: string): Promise<number> {
  const [fin, fout] = [openSync(input, 'r'), openSync(output, 'w')];
  try {
    return await timeCommand(BARE, fin, fout);
  } finally {
    closeSync(fin);
    closeSync(fout);
  }
}

const rate = (words: number, ms: number) => (words / ms) * 1000;
const list = (xs: number[]) => `[${xs.map((x) => x.toFixed(0)).join(', ')}]`;
const verdict = (ratio: number) => (ratio >= GOAL ? 'met' : 'NOT met');

export async function benchApertium(rounds: number): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const sentences = englishSentences(SENTENCES);
  const words = wordCount(sentences);
  const firstWords = wordCount(sentences.slice(0, 1));
  const corpus = join(TMP, 'corpus-en.txt');
  const oneLine = join(TMP, 'corpus-en-1.txt');
  const out = join(TMP, 'corpus-es.txt');
  writeFileSync(corpus, `${sentences.join('\n')}\n`);
  writeFileSync(oneLine, `${sentences[0]}\n`);
  await bare(corpus, out); // warm-up: dictionaries into the page cache

  const s: Series = { batch: [], text: [], textP50: [], textP99: [], bare: [], bareFree: [], startup: [] };
  let translations: string[] = [];
  const service = async (): Promise<void> => {
    const server = await startServer();
    try {
      const result = await runClient<ApertiumResult>({ mode: 'apertium', port: server.port, file: corpus, concurrency: CONCURRENCY });
      s.batch.push(rate(words, result.batchMs));
      s.text.push(rate(words, result.textMs));
      s.textP50.push(result.textP50Ms);
      s.textP99.push(result.textP99Ms);
      translations = result.translations;
    } finally {
      await server.stop();
    }
  };
  const command = async (): Promise<void> => {
    const full = await bare(corpus, out);
    const one = await bare(oneLine, join(TMP, 'corpus-es-1.txt'));
    s.bare.push(rate(words, full));
    // The 1-line run pays the start-up and translates the first sentence: the rest is what the full
    // run did beyond it.
    s.bareFree.push(rate(words - firstWords, Math.max(full - one, 1)));
    s.startup.push(one);
  };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? [service, command] : [command, service]) await side();
  }

  const bareLines = readFileSync(out, 'utf8').split('\n');
  const same = translations.filter((t, i) => t.trim() === bareLines[i]?.trim()).length;
  const m = { batch: median(s.batch), text: median(s.text), bare: median(s.bare), bareFree: median(s.bareFree) };
  console.log(`\napertium-throughput (${rounds} rounds, sides alternated; eng-spa, ${sentences.length} sentences, ${words} words)`);
  const row = (label: string, value: number, xs: number[], extra = '') =>
    console.log(`  ${label.padEnd(54)} ${value.toFixed(0).padStart(6)} words/s   ${list(xs)}${extra}`);
  row('service, TranslateLocalization (1 batch call)', m.batch, s.batch);
  const latency = `   latency p50 ${median(s.textP50).toFixed(1)} ms, p99 ${median(s.textP99).toFixed(1)} ms`;
  row(`service, TranslateText (1 sentence/call, ${CONCURRENCY} concurrent)`, m.text, s.text, latency);
  row(`bare \`${BARE.join(' ')}\`, start-up included`, m.bare, s.bare);
  row('bare, start-up-free (minus a 1-line run)', m.bareFree, s.bareFree, `   start-up ${median(s.startup).toFixed(0)} ms`);
  const [batchRatio, textRatio] = [m.batch / m.bareFree, m.text / m.bareFree];
  console.log(`  ratio vs start-up-free bare (goal >= ${GOAL}x): batch ${batchRatio.toFixed(2)}x ${verdict(batchRatio)}, per-sentence ${textRatio.toFixed(2)}x ${verdict(textRatio)}`);
  console.log(`  ratio vs bare with start-up (for reference):  batch ${(m.batch / m.bare).toFixed(2)}x, per-sentence ${(m.text / m.bare).toFixed(2)}x`);
  console.log(`  output: ${same} of ${sentences.length} batch translations identical to the bare command's lines`);
}
