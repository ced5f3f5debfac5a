// `translate-localization`: one TranslateLocalization call of a 10,000-string localization file with the
// built-in `pseudo` model, en -> es. Each round starts a fresh server, makes a warm-up call and times one
// call from the client; the median round is reported against the goal (under 1 s).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalizationResult } from './client.ts';
import { localizationDocument } from './corpus.ts';
import { median } from '../peers.ts';
import { runClient, startServer, TMP } from './processes.ts';

const STRINGS = 10_000;
const GOAL_MS = 1000;

export async function benchLocalization(rounds: number): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const doc = localizationDocument(STRINGS);
  const file = join(TMP, 'localization-en.json');
  writeFileSync(file, doc.json);

  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const server = await startServer();
    try {
      const result = await runClient<LocalizationResult>({ mode: 'localization', port: server.port, file });
      if (result.strings !== doc.strings) throw new Error(`strings_translated ${result.strings}, expected ${doc.strings}`);
      samples.push(result.ms);
    } finally {
      await server.stop();
    }
  }

  const ms = median(samples);
  const size = (doc.json.length / 1024).toFixed(0);
  console.log(`\ntranslate-localization (${rounds} rounds, 1 call each after a warm-up; model pseudo, en -> es)`);
  console.log(`  document           ${doc.strings} leaf strings (${doc.unique} distinct), ${size} KiB`);
  console.log(`  median call        ${ms.toFixed(0).padStart(8)} ms   ${((doc.strings / ms) * 1000).toFixed(0)} strings/s   [${samples.map((x) => x.toFixed(0)).join(', ')}]`);
  console.log(`  goal < ${GOAL_MS} ms       ${ms < GOAL_MS ? 'met' : `NOT met (${(ms / GOAL_MS).toFixed(1)}x the goal)`}`);
}
