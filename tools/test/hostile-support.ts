// What the hostile-input tests share: the peak memory of a launched target, and slow clients holding it.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { ExecutionContext } from 'ava';
import type { Launched } from '../../conformance/harness/launch.ts';
import { marked } from '../../conformance/harness/sweep.ts';

/** Peak resident memory (MB, VmHWM) of the target's processes so far; 0 when none is found. */
export function peakRssMb(target: Launched): number {
  let peak = 0;
  for (const pid of marked('PORT', String(target.port))) {
    try {
      const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      // gone meanwhile
    }
  }
  return peak;
}

/** Runs `during` while `count` clients hold connections to `port` with the head `partialHead` half sent. */
export async function withSlowClients<T>(port: number, partialHead: string, count: number, during: () => Promise<T>): Promise<T> {
  const slow: Socket[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const s = connect({ host: '127.0.0.1', port });
      s.on('error', () => {});
      s.write(partialHead);
      slow.push(s);
    }
    return await during();
  } finally {
    for (const s of slow) s.destroy();
  }
}

/** Runs `run` against `target`, then checks that its peak memory grew by less than `boundMb`, that
 * `stillServes` passes (a plain request answered), and that the server logged no uncaught error (a server that
 * catches those to stay up would hide the crash a request caused). */
export async function boundedAttack(
  t: ExecutionContext,
  target: Launched,
  boundMb: number,
  run: () => Promise<void>,
  stillServes: () => Promise<void>,
): Promise<void> {
  const before = peakRssMb(target);
  await run();
  const after = peakRssMb(target);
  const rss = `peak RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after`;
  t.true(after > 0, 'the server process was found in /proc');
  t.true(after - before < boundMb, rss);
  t.log(rss);
  await stillServes();
  const uncaught = /^.*\b(uncaught|unhandled rejection)\b.*$/im.exec(target.stderr());
  t.is(uncaught, null, `the server logged: ${uncaught?.[0]}`);
}

export interface Answer {
  status: number;
  body: string;
}

/** The answer is `status` with a JSON body and no stack trace (its text shown on failure). */
export function refusedAsJson(t: ExecutionContext, answer: Answer, status: number, what: string): void {
  t.is(answer.status, status, `${what}: ${answer.body.slice(0, 200)}`);
  t.notRegex(answer.body, /\n\s+at /, `${what}: a stack trace in the answer`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    parsed = undefined;
  }
  t.true(typeof parsed === 'object' && parsed !== null, `${what}: not a JSON body: ${answer.body.slice(0, 200)}`);
}

/** A multipart/form-data body (boundary `cut`) whose parts are files in `fields`, each with `content`, cut right
 * after the head of its last part: a parser holds back a head's last bytes (they might begin a boundary) and sees
 * them only when the body ends, so that part comes after whatever the earlier parts made it decide. */
export function cutAfterPartHead(fields: readonly string[], content = 'x'): { headers: Record<string, string>; body: string } {
  const head = (field: string) => `--cut\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  const body = fields.map((field, i) => (i < fields.length - 1 ? `${head(field)}${content}\r\n` : head(field))).join('');
  return { headers: { 'content-type': 'multipart/form-data; boundary=cut' }, body };
}
