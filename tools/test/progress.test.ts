// The progress line: its text, its time left, and how it behaves on a terminal (one line redrawn, failures
// printed above it) and elsewhere (no control characters).
import test from 'ava';
import { clock, Progress, progressText, timeLeft } from '../conform/progress.ts';

const exact = { cases: 1145, exact: true, expectedMs: 110_000 };

test('the line: done/total, surface, percentage, failures, time left', (t) => {
  t.is(progressText(exact, { done: 412, failed: 0, surface: 'static', elapsedMs: 40_000 }), '[412/1145] static 35% · 0 failed · 1:10 left');
  t.is(progressText({ ...exact, exact: false }, { done: 3, failed: 1, surface: 'gateway', elapsedMs: 1_000 }), '[3/~1145] gateway 0% · 1 failed · 1:50 left');
  // Nothing known of the run: the count and the time so far.
  t.is(progressText({ cases: undefined, exact: false, expectedMs: undefined }, { done: 7, failed: 0, surface: undefined, elapsedMs: 65_000 }), '[7] · 0 failed · 1:05');
  // More cases than the index knew (the suites changed since): the total follows.
  t.is(progressText({ ...exact, exact: false, cases: 10 }, { done: 12, failed: 0, surface: 'recipes', elapsedMs: 5_000 }).slice(0, 13), '[12/~12] reci');
});

test('the time left trusts the plan at first and the pace as the run goes on', (t) => {
  const plan = { cases: 100, exact: true, expectedMs: 100_000 };
  t.is(timeLeft(plan, { done: 0, failed: 0, surface: undefined, elapsedMs: 10_000 }), 90_000);
  // Half done in 20 s: the plan says 80 s left, the pace 20 s; half each.
  t.is(timeLeft(plan, { done: 50, failed: 0, surface: undefined, elapsedMs: 20_000 }), 50_000);
  t.is(timeLeft(plan, { done: 100, failed: 0, surface: undefined, elapsedMs: 90_000 }), 0);
  // No plan: the pace, once a twentieth is done.
  const noPlan = { cases: 100, exact: true, expectedMs: undefined };
  t.is(timeLeft(noPlan, { done: 2, failed: 0, surface: undefined, elapsedMs: 1_000 }), undefined);
  t.is(timeLeft(noPlan, { done: 10, failed: 0, surface: undefined, elapsedMs: 10_000 }), 90_000);
  t.is(clock(3_723_000), '1:02:03');
});

function fakeStream(tty: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const write = (chunk: string): boolean => {
    out += chunk;
    return true;
  };
  const stream = { isTTY: tty, columns: 60, write } as unknown as NodeJS.WriteStream;
  return { stream, text: () => out };
}

test('on a terminal: one line redrawn in place, a failure printed above it, the last state left as a line', (t) => {
  const { stream, text } = fakeStream(true);
  const p = new Progress(stream, { cases: 2, exact: true, expectedMs: undefined });
  p.caseEnded('static', false);
  p.print('FAIL static/x/y/z');
  p.caseEnded('static', true);
  p.end();
  const out = text();
  t.true(out.startsWith('\r\x1b[2K[0/2] 0% · 0 failed'), JSON.stringify(out));
  t.true(out.includes('\r\x1b[2KFAIL static/x/y/z\n\r\x1b[2K[1/2] static 50% · 0 failed'), JSON.stringify(out));
  t.true(out.endsWith('\r\x1b[2K2 cases ended · 1 failed · 0:00\n'), JSON.stringify(out));
});

test('not on a terminal (a CI log): plain lines only, no control characters', (t) => {
  const { stream, text } = fakeStream(false);
  const p = new Progress(stream, { cases: 2, exact: true, expectedMs: undefined });
  p.caseEnded('static', true);
  p.print('FAIL static/x/y/z');
  p.end();
  t.is(text(), 'FAIL static/x/y/z\n1 case ended · 1 failed · 0:00\n');
});
