// What a conformance case gets besides ava's `t`: its target, launching, HTTP clients and property runs,
// each recording what a person needs to reproduce a failure.
import { cpSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { emit, reportStart } from './events.ts';
import { type ClientOptions, HttpClient } from './http-client.ts';
import { Inconclusive } from './inconclusive.ts';
import { type FailedStart, launch, type LaunchSpec, type Launched, PROJECT_ROOT, shellQuote, TargetStartError } from './launch.ts';
import { runEnv, type TargetSpec } from './run-env.ts';

/** Reproducer lines kept per case (the report shows them all; the terminal the setup and the last ones). */
const REPRO_LINES = 400;
/** Lines of a target's stderr noted when a case does not pass. */
const STDERR_LINES = 20;
const DEFAULT_RUNS = 50;
/** Files reproducers refer to: beside the report, or in a direct ava run under .cache/. */
/** A file of a target's folder larger than this is left out of its kept copy. */
const KEPT_FILE_LIMIT = 16 * 1024 * 1024;
const ARTIFACTS_DIR = runEnv.artifactsDir ?? join(PROJECT_ROOT, '.cache', 'conformance', 'artifacts');
/** The time a whole property may take (its runs and shrinking); a run under way when it ends finishes. */
const PROPERTY_BUDGET_MS = 45_000;

export interface PropertyOptions {
  numRuns?: number;
}

export class CaseContext {
  readonly id: string;
  readonly surface: string;
  readonly target: TargetSpec;
  readonly #t: ExecutionContext;
  readonly #launched: Launched[] = [];
  readonly #repro: string[] = [];
  readonly #cleanups: (() => Promise<void> | void)[] = [];
  readonly #ended = new AbortController();
  readonly #kept: { path: string; content: Uint8Array }[] = [];
  /** Target folders (dir -> where a failing case's copy goes). */
  readonly #folders = new Map<string, string>();
  readonly #startedAt = Date.now();

  constructor(t: ExecutionContext, id: string, surface: string, target: TargetSpec) {
    this.#t = t;
    this.id = id;
    this.surface = surface;
    this.target = target;
  }

  /** Aborted when the case ends (passed, failed or timed out): work still under way for it stops. */
  get signal(): AbortSignal {
    return this.#ended.signal;
  }

  /** Adds a line to the reproducer shown when the case fails. */
  note(line: string): void {
    this.#repro.push(line);
  }

  /** The last reproducer line: what the case was doing (shown when it does not finish). */
  lastStep(): string | undefined {
    return this.#repro.at(-1);
  }

  /** Registers work to undo after the case (servers the case started, files). Registered after the case
   * has ended (a step that finished late), it is done at once. */
  defer(cleanup: () => Promise<void> | void): void {
    if (this.#ended.signal.aborted) void Promise.resolve().then(cleanup).catch(() => undefined);
    else this.#cleanups.push(cleanup);
  }

  /** Ends the case as `error`: it cannot judge its clause, for `cause` (say it in full: what was tried, what
   * came back). Never for what the clause itself is about: that is a failed check. */
  inconclusive(cause: string): never {
    throw new Inconclusive(cause);
  }

  /** Awaits a step the case needs before it can judge anything (a setup call, an answer to read): if it
   * fails, the case is `error` with `what` and the step's own error as the cause. */
  async need<T>(what: string, step: Promise<T> | (() => Promise<T> | T)): Promise<T> {
    try {
      return await (typeof step === 'function' ? step() : step);
    } catch (err) {
      if (err instanceof Inconclusive) throw err;
      throw new Inconclusive(`${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  /** Starts the `cmd:` target with the files and config of `spec`; `command` replaces the target's template
   * (for example its alias command). */
  async launch(spec: LaunchSpec, command: string | undefined = this.target.command): Promise<Launched> {
    if (this.target.kind !== 'cmd' || !command) {
      throw new Error(`${this.id}: launch needs a cmd: target (declare needs: ['launch'])`);
    }
    // A start counts as the target starting (for the runner's "never started" verdict) once it listens: a
    // command expected to end (a startup error) says nothing of whether the target can start at all.
    // A start that fails is kept for the reproducer too: its folder as it was, its config and command.
    const failedCopy = this.#nextFolderCopy();
    const keepFailed = (dir: string): void => this.#copyFolder(dir, failedCopy);
    const starting = launch(command, this.target.env ?? {}, { ...spec, onFailedStart: keepFailed }, this.#ended.signal);
    const started = await (spec.wait === 'exit' ? starting : reportStart(this.id, starting)).catch((err: unknown) => {
      if (err instanceof TargetStartError && err.start) {
        this.#noteStart(err.start, failedCopy, 'the target as its start failed');
      }
      throw err;
    });
    if (spec.wait === 'exit') {
      void started.started.then((how) => {
        if (how === 'listening') emit({ type: 'launched', id: this.id });
      });
    }
    if (this.#ended.signal.aborted) {
      await started.stop();
      throw new Inconclusive('the case ended while its target was starting');
    }
    this.#launched.push(started);
    this.#noteStart(started, this.#keepFolder(started.dir), 'the target, in a copy of its folder as the case left it');
    return started;
  }

  /** The reproducer's lines for a start: its config file, then the command in a copy of its folder. */
  #noteStart(start: FailedStart, folder: string, what: string): void {
    if (start.configText !== undefined) this.note(`# ${start.configPath?.split('/').pop()}: ${start.configText.replace(/\s*\n\s*/g, ' ')}`);
    this.note(`(cd ${shellQuote(folder)} && exec env ${start.envLine} ${start.commandLine}) & sleep 1  # ${what}`);
  }

  /** An HTTP client for `baseUrl` whose requests are recorded for the reproducer. */
  http(baseUrl: string, options: ClientOptions = {}): HttpClient {
    return new HttpClient(baseUrl, (line) => this.note(line), options, (body) => this.keepFile('body', body));
  }

  /** Where the target's folder `dir` is copied when the case ends without passing (once per folder). */
  #keepFolder(dir: string): string {
    const known = this.#folders.get(dir);
    if (known) return known;
    const copy = this.#nextFolderCopy();
    this.#folders.set(dir, copy);
    return copy;
  }

  #copies = 0;

  /** A fresh place for a copy of a target's folder among the case's artifacts. */
  #nextFolderCopy(): string {
    return join(ARTIFACTS_DIR, this.id.replace(/\//g, '__'), `folder-${++this.#copies}`);
  }

  /** Copies a target's folder into the case's artifacts (files over KEPT_FILE_LIMIT left out); a copy that
   * fails is said in the reproducer and stops nothing. */
  #copyFolder(dir: string, copy: string): void {
    try {
      cpSync(dir, copy, { recursive: true, filter: (from) => (statSync(from, { throwIfNoEntry: false })?.size ?? 0) <= KEPT_FILE_LIMIT });
    } catch (err) {
      this.note(`# the target's folder was not kept: ${(err as Error).message}`);
    }
  }

  /** A file a reproducer line refers to (a request body): its path is returned now, and it is written when
   * the case ends without passing, into the run's artifacts folder beside the report. */
  keepFile(kind: string, content: Uint8Array): string {
    const path = join(ARTIFACTS_DIR, this.id.replace(/\//g, '__'), `${kind}-${this.#kept.length + 1}.bin`);
    this.#kept.push({ path, content });
    return path;
  }

  /**
   * Runs a fast-check property. The predicate should use node:assert (not `t`), because ava counts a failed
   * `t` assertion even when fast-check catches it while shrinking. Seed and path are logged and replayable
   * with CONFORM_FC_SEED / CONFORM_FC_PATH.
   */
  async property<T>(
    arb: fc.Arbitrary<T>,
    // biome-ignore lint/suspicious/noConfusingVoidType: fast-check's own predicate type
    predicate: (value: T) => Promise<boolean | void>,
    options: PropertyOptions = {},
  ): Promise<void> {
    const seed = runEnv.fcSeed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff));
    const notesBefore = this.#repro.length;
    // A run that cannot judge (a target that did not start, an answer it needs unreadable) is no
    // counterexample: it stops the property, and the case ends as `error` with that cause.
    let cannotJudge: Inconclusive | undefined;
    const judged = async (value: T): Promise<boolean | undefined> => {
      if (cannotJudge !== undefined) return true;
      try {
        return (await predicate(value)) ?? undefined;
      } catch (error) {
        if (!(error instanceof Inconclusive)) throw error;
        cannotJudge = error;
        return true;
      }
    };
    const details = await fc.check(fc.asyncProperty(arb, judged), {
      seed,
      ...(runEnv.fcPath ? { path: runEnv.fcPath } : {}),
      numRuns: runEnv.fcRuns ?? options.numRuns ?? DEFAULT_RUNS,
      // Runs may start servers: the property gets a time budget, and the smallest failure found by then is kept.
      interruptAfterTimeLimit: PROPERTY_BUDGET_MS,
    });
    this.#t.log(`fast-check seed ${seed}`);
    if (cannotJudge !== undefined) throw cannotJudge;
    if (details.failed && details.counterexample === null) {
      // fast-check counts a budget spent before any run finished as a failure: nothing was judged.
      throw new Inconclusive(`no run of the property finished within its ${PROPERTY_BUDGET_MS} ms budget`);
    }
    if (details.failed) {
      // The notes of all runs and shrink attempts are noise: keep those of one more run of the smallest
      // counterexample, so the reproducer shows exactly the failing config and requests.
      this.#repro.length = notesBefore;
      if (details.counterexample) await predicate(details.counterexample[0] as T).catch(() => undefined);
      const replay = ` ${runEnv.replayArgs[this.surface] ?? `--surface ${this.surface}`}`;
      this.note(`CONFORM_FC_SEED=${details.seed} CONFORM_FC_PATH=${details.counterexamplePath} npm run conform --${replay} --only '${this.id}'`);
      this.#t.fail(fc.defaultReportMessage(details) ?? 'property failed');
      return;
    }
    this.#t.pass(`${details.numRuns} runs`);
  }

  async close(): Promise<void> {
    this.#ended.abort();
    // What the reproducer refers to, kept before the targets' folders go; a copy that fails is said in the
    // reproducer and never stops the targets' end.
    if (!this.#t.passed) {
      try {
        this.#keepArtifacts();
      } catch (err) {
        this.note(`# files of this case not kept: ${(err as Error).message}`);
      }
    }
    // Targets first: upstreams and fixtures the case started may hold connections from them.
    await Promise.all(this.#launched.map((l) => l.stop()));
    if (!this.#t.passed) this.#noteStderr();
    for (const cleanup of this.#cleanups.reverse()) await cleanup();
    emit({ type: 'repro', id: this.id, lines: this.#repro.slice(-REPRO_LINES), startedAt: this.#startedAt, endedAt: Date.now() });
  }

  /** The end of what each target the case started wrote to stderr: often the cause of a refused step. */
  #noteStderr(): void {
    for (const launched of this.#launched) {
      const lines = launched.stderr().trim().split('\n').filter(Boolean).slice(-STDERR_LINES);
      if (lines.length === 0) continue;
      this.note(`# the target's stderr, last ${lines.length} lines: ${launched.commandLine}`);
      for (const line of lines) this.note(`#   ${line.slice(0, 500)}`);
    }
  }

  #keepArtifacts(): void {
    for (const { path, content } of this.#kept) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    // A property's earlier runs have removed their folders already: what is still there is kept.
    for (const [dir, copy] of this.#folders) {
      if (existsSync(dir)) this.#copyFolder(dir, copy);
    }
  }
}
