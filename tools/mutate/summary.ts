// The table of a mutation run of one surface, from Stryker's JSON report (mutation-testing-report-schema):
// mutants killed, survived, timed out, not reached, and the score before and after the answers.
import { type Answer, type AnswerKind, mutantName } from './answers.ts';

interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number } };
  status: string;
  statusReason?: string;
}

export interface StrykerReport {
  files: Record<string, { mutants: ReportMutant[] }>;
}

export interface MutantLine {
  name: string;
  status: string;
  answer?: AnswerKind;
  clause?: string;
}

export interface Summary {
  surface: string;
  modules: number;
  /** Every mutant of the modules; `run` of them were in this run (all, or the sample). */
  generated: number;
  sampled: boolean;
  run: number;
  killed: number;
  survived: number;
  timedOut: number;
  noCoverage: number;
  /** Runtime and compile errors, and ignored mutants: out of the score, as Stryker counts it. */
  other: number;
  /** Stryker's score: (killed + timed out) / (killed + timed out + survived + no coverage), in percent. */
  score: number | null;
  answered: Record<AnswerKind, number>;
  /** The score once answered mutants are counted: equivalent and unspecified ones leave the denominator. */
  scoreAnswered: number | null;
  unanswered: MutantLine[];
  survivors: MutantLine[];
  /** Survivors of the files that reach them that another file killed: faults of the measured reach (null:
   * not checked, no --check-reach). */
  reachMisses: number | null;
  wallMs: number;
}

/** What the table takes from the run besides Stryker's report. */
export interface RunFigures {
  listed: number;
  modules: number;
  sampled: boolean;
  wallMs: number;
  reachMisses: number | null;
}

const percent = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((1000 * part) / whole) / 10);

export function summarize(
  surface: string,
  report: StrykerReport,
  answers: Map<string, Answer>,
  run: RunFigures,
): Summary {
  const count = { Killed: 0, Survived: 0, Timeout: 0, NoCoverage: 0 } as Record<string, number>;
  let other = 0;
  const survivors: MutantLine[] = [];
  const answered: Record<AnswerKind, number> = { equivalent: 0, unspecified: 0, case: 0 };
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      if (m.status in count) count[m.status]!++;
      else other++;
      if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
      const name = mutantName({ file, line: m.location.start.line, column: m.location.start.column, mutator: m.mutatorName, replacement: m.replacement ?? '' });
      const answer = answers.get(name);
      if (answer) answered[answer.answer]++;
      survivors.push({ name, status: m.status, answer: answer?.answer, clause: answer?.clause });
    }
  }
  const killed = count.Killed! + count.Timeout!;
  const valid = killed + count.Survived! + count.NoCoverage!;
  return {
    surface,
    modules: run.modules,
    generated: run.listed,
    sampled: run.sampled,
    run: valid + other,
    killed: count.Killed!,
    survived: count.Survived!,
    timedOut: count.Timeout!,
    noCoverage: count.NoCoverage!,
    other,
    score: percent(killed, valid),
    answered,
    scoreAnswered: percent(killed, valid - answered.equivalent - answered.unspecified),
    unanswered: survivors.filter((s) => s.answer === undefined || s.answer === 'case'),
    survivors,
    reachMisses: run.reachMisses,
    wallMs: run.wallMs,
  };
}

const shown = (score: number | null): string => (score === null ? '–' : `${score}%`);

export function summaryMarkdown(s: Summary, answersPath: string): string {
  const lines = [
    `## Mutation run of ${s.surface}`,
    '',
    '| modules | mutants | run | killed | survived | timed out | no coverage | errors | score | answered (equivalent / unspecified / case) | score after answers | wall time |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
    `| ${s.modules} | ${s.generated} | ${s.run}${s.sampled ? ' (sample)' : ''} | ${s.killed} | ${s.survived} | ${s.timedOut} | ${s.noCoverage} | ${s.other} | ${shown(s.score)} | ${s.answered.equivalent} / ${s.answered.unspecified} / ${s.answered.case} | ${shown(s.scoreAnswered)} | ${Math.round(s.wallMs / 1000)} s |`,
    '',
    `Each mutant was judged by the suite files that reach it; ${
      s.reachMisses === null
        ? 'the reach was not checked (--check-reach runs each survivor against the whole suite too).'
        : `each survivor of those was run against the whole suite too: ${s.reachMisses === 0 ? 'none was killed there (the reach held).' : `${s.reachMisses} ${s.reachMisses === 1 ? 'was' : 'were'} killed there (outside the measured reach: counted killed; see each one's killer in mutation.json).`}`
    }`,
    '',
  ];
  if (s.survivors.length > 0) {
    lines.push('Surviving mutants:', '');
    for (const m of s.survivors) lines.push(`- \`${m.name}\` (${m.status}): ${m.answer ? `${m.answer}${m.clause ? ` (${m.clause})` : ''}` : `**unanswered**: answer it in ${answersPath}`}`);
    lines.push('');
  }
  return lines.join('\n');
}
