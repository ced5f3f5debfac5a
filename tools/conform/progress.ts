// The run's progress as a person follows it: `[412/1145] static 36% · 0 failed · 1:05 left`. On a terminal
// one line, rewritten as cases end and every second; elsewhere (a CI log) the same text as a plain line every
// PLAIN_EVERY_MS. The time left blends the plan (the last whole run's file times) with the pace so far,
// trusting the pace more as more of the run is done.
import type { Plan } from './reporter.ts';

/** A plain progress line this often when the output is not a terminal. */
export const PLAIN_EVERY_MS = 10_000;
const REDRAW_MS = 1_000;

export interface ProgressState {
  done: number;
  failed: number;
  /** The surface of the last case that ended. */
  surface: string | undefined;
  elapsedMs: number;
}

/** `m:ss` (or `h:mm:ss`). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The time left, when anything can be said of it. */
export function timeLeft(plan: Plan, state: ProgressState): number | undefined {
  const byPlan = plan.expectedMs === undefined ? undefined : Math.max(0, plan.expectedMs - state.elapsedMs);
  const f = plan.cases ? Math.min(1, state.done / plan.cases) : undefined;
  const byPace = f !== undefined && f > 0 ? (state.elapsedMs * (1 - f)) / f : undefined;
  if (byPlan !== undefined && byPace !== undefined) return (1 - f!) * byPlan + f! * byPace;
  // The pace of the first few cases says little (the short ones end first).
  if (byPace !== undefined && f! >= 0.05) return byPace;
  return byPlan;
}

export function progressText(plan: Plan, state: ProgressState): string {
  const total = plan.cases === undefined ? '' : `/${plan.exact ? '' : '~'}${Math.max(plan.cases, state.done)}`;
  const pct = plan.cases ? ` ${Math.min(100, Math.floor((100 * state.done) / plan.cases))}%` : '';
  const left = timeLeft(plan, state);
  const when = left === undefined ? clock(state.elapsedMs) : `${clock(left)} left`;
  return `[${state.done}${total}]${state.surface ? ` ${state.surface}` : ''}${pct} · ${state.failed} failed · ${when}`;
}

export class Progress {
  readonly #out: NodeJS.WriteStream;
  readonly #tty: boolean;
  readonly #plan: Plan;
  readonly #startedAt = Date.now();
  readonly #state: ProgressState = { done: 0, failed: 0, surface: undefined, elapsedMs: 0 };
  #timer: NodeJS.Timeout | undefined;
  #shown = false;

  constructor(out: NodeJS.WriteStream, plan: Plan) {
    this.#out = out;
    this.#tty = out.isTTY === true;
    this.#plan = plan;
    this.#timer = setInterval(() => (this.#tty ? this.#draw() : this.#plain()), this.#tty ? REDRAW_MS : PLAIN_EVERY_MS);
    this.#timer.unref();
    if (this.#tty) this.#draw();
  }

  caseEnded(surface: string, failed: boolean): void {
    this.#state.done++;
    if (failed) this.#state.failed++;
    this.#state.surface = surface;
    if (this.#tty) this.#draw();
  }

  /** Prints `text` above the progress line (which is drawn again under it). */
  print(text: string): void {
    this.#clear();
    this.#out.write(`${text}\n`);
    if (this.#tty) this.#draw();
  }

  /** Stops redrawing and leaves the last state as a line of its own. */
  end(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
    const elapsed = Date.now() - this.#startedAt;
    this.#out.write(`${this.#state.done} case${this.#state.done === 1 ? '' : 's'} ended · ${this.#state.failed} failed · ${clock(elapsed)}\n`);
  }

  #clear(): void {
    if (this.#tty && this.#shown) this.#out.write('\r\x1b[2K');
    this.#shown = false;
  }

  #text(): string {
    this.#state.elapsedMs = Date.now() - this.#startedAt;
    return progressText(this.#plan, this.#state);
  }

  #draw(): void {
    const width = this.#out.columns || 80;
    this.#out.write(`\r\x1b[2K${this.#text().slice(0, width - 1)}`);
    this.#shown = true;
  }

  #plain(): void {
    this.#out.write(`${this.#text()}\n`);
  }
}
