// Times this worker's event loop could not run (the machine busy, a case computing): while it stalls, no
// timer, socket or child-process event of any case is handled, so an answer that came in time waits unread,
// and a case's time limit would count time its target was not given. A timer every TICK_MS notes how late
// it comes; lateness above STALL_MS is kept as a stall.
const TICK_MS = 100;
const STALL_MS = 250;
/** Stalls kept: enough for any case's time span. */
const KEPT = 200;

interface Stall {
  /** When the loop ran again. */
  endedAt: number;
  ms: number;
}

const stalls: Stall[] = [];
let lastTick = Date.now();

setInterval(() => {
  const now = Date.now();
  const late = now - lastTick - TICK_MS;
  lastTick = now;
  if (late <= STALL_MS) return;
  stalls.push({ endedAt: now, ms: late });
  if (stalls.length > KEPT) stalls.shift();
}, TICK_MS).unref();

/** How long the loop was stalled since `since` (ms since the epoch), counting a stall that ends only now. */
export function stalledMsSince(since: number): number {
  const now = Date.now();
  const current = Math.max(0, now - lastTick - TICK_MS);
  const ongoing = current > STALL_MS ? Math.min(current, now - since) : 0;
  return stalls.reduce((sum, s) => sum + Math.max(0, Math.min(s.ms, s.endedAt - since)), ongoing);
}

/** The time since `since` that this worker could run: for a case's own timing checks, which must not count
 * time its worker could not look. */
export function runningMsSince(since: number): number {
  return Date.now() - since - stalledMsSince(since);
}
