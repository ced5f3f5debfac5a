// Lists the cases of every suite without running any (ava in list mode): the input of clause coverage.
import type { Catalog } from '../spec/catalog.ts';
import { NO_KNOWN_FAILURES } from './known-failing.ts';
import type { CaseResult } from './outcomes.ts';
import { runSuites } from './run-suites.ts';
import { discoverSuites, resolveTargets } from './suites.ts';

export async function listCases(catalog: Catalog): Promise<{ cases: CaseResult[]; errors: string[] }> {
  const suites = discoverSuites();
  const targets = resolveTargets(suites, []);
  const settings = { only: [], skip: [], list: true, known: NO_KNOWN_FAILURES };
  const runs = [...(await runSuites(suites, targets, catalog, settings, () => {})).surfaces.values()];
  return { cases: runs.flatMap((r) => r.results), errors: runs.flatMap((r) => r.harnessErrors) };
}
