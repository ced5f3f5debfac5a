// What a conformance case gets besides ava's `t`: its target, launching, HTTP clients and property runs,
// each recording what a person needs to reproduce a failure.
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { emit, reportStart } from './events.ts';
import { type ClientOptions, HttpClient } from './http-client.ts';
import { launch, type LaunchSpec, type Launched } from './launch.ts';
import { runEnv, type TargetSpec } from './run-env.ts';

const REPRO_LINES = 12;
const DEFAULT_RUNS = 50;
const SHRINK_BUDGET_MS = 45_000;

export interface PropertyOptions {
  numRuns?: number;
}

export class CaseContext {
  readonly id: string;
  readonly target: TargetSpec;
  readonly #t: ExecutionContext;
  readonly #launched: Launched[] = [];
  readonly #repro: string[] = [];
  readonly #cleanups: (() => Promise<void> | void)[] = [];

  constructor(t: ExecutionContext, id: string, target: TargetSpec) {
    this.#t = t;
    this.id = id;
    this.target = target;
  }

  /** Adds a line to the reproducer shown when the case fails. */
  note(line: string): void {
    this.#repro.push(line);
  }

  /** Registers work to undo after the case (servers the case started, files). */
  defer(cleanup: () => Promise<void> | void): void {
    this.#cleanups.push(cleanup);
  }

  /** Starts the `cmd:` target with the files and config of `spec`; `command` replaces the target's template
   * (for example its alias command). */
  async launch(spec: LaunchSpec, command: string | undefined = this.target.command): Promise<Launched> {
    if (this.target.kind !== 'cmd' || !command) {
      throw new Error(`${this.id}: launch needs a cmd: target (declare needs: ['launch'])`);
    }
    const started = await reportStart(this.id, launch(command, this.target.env ?? {}, spec));
    this.#launched.push(started);
    if (started.configText !== undefined) {
      this.note(`# ${started.configPath?.split('/').pop()}: ${started.configText.replace(/\s*\n\s*/g, ' ')}`);
    }
    this.note(`# command: ${started.commandLine}`);
    return started;
  }

  /** An HTTP client for `baseUrl` whose requests are recorded for the reproducer. */
  http(baseUrl: string, options: ClientOptions = {}): HttpClient {
    return new HttpClient(baseUrl, (line) => this.note(line), options);
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
    const details = await fc.check(fc.asyncProperty(arb, predicate), {
      seed,
      ...(runEnv.fcPath ? { path: runEnv.fcPath } : {}),
      numRuns: runEnv.fcRuns ?? options.numRuns ?? DEFAULT_RUNS,
      // Runs may start servers: shrinking gets a time budget, and the smallest failure found by then is kept.
      interruptAfterTimeLimit: SHRINK_BUDGET_MS,
    });
    this.#t.log(`fast-check seed ${seed}`);
    if (details.failed) {
      // The notes of all runs and shrink attempts are noise: keep those of one more run of the smallest
      // counterexample, so the reproducer shows exactly the failing config and requests.
      this.#repro.length = notesBefore;
      if (details.counterexample) await predicate(details.counterexample[0] as T).catch(() => undefined);
      this.note(`CONFORM_FC_SEED=${details.seed} CONFORM_FC_PATH=${details.counterexamplePath} npm run conform -- --only '${this.id}'`);
      this.#t.fail(fc.defaultReportMessage(details) ?? 'property failed');
      return;
    }
    this.#t.pass(`${details.numRuns} runs`);
  }

  async close(): Promise<void> {
    // Targets first: upstreams and fixtures the case started may hold connections from them.
    await Promise.all(this.#launched.map((l) => l.stop()));
    for (const cleanup of this.#cleanups.reverse()) await cleanup();
    emit({ type: 'repro', id: this.id, lines: this.#repro.slice(-REPRO_LINES) });
  }
}
