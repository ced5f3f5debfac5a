// The line transport on any input, cut into chunks anywhere: every line that is not blank gets exactly one
// outcome — delivered as a message, or answered with a JSON-RPC error — in order, and nothing throws.
import { PassThrough, Writable } from 'node:stream';
import test from 'ava';
import fc from 'fast-check';
import { StdioLineTransport } from './stdio-lines.ts';

/** A small limit, so overlong lines are cheap to make. */
const MAX_LINE = 64;

type Line = { kind: 'message'; text: string } | { kind: 'refused'; text: string; code: number } | { kind: 'blank'; text: string };

const message = fc
  .record({ id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), method: fc.constantFrom('ping', 'tools/list') })
  .map(({ id, method }): Line => ({ kind: 'message', text: JSON.stringify({ jsonrpc: '2.0', id, method }) }));
/** Not JSON: any text without a newline after a letter no JSON text starts with (at most 61 bytes: under the limit). */
const garbage = fc.string({ unit: 'binary', maxLength: 15 }).map((s): Line => ({ kind: 'refused', text: `x${s.replace(/\n/g, ' ')}`, code: -32700 }));
/** JSON, but not a JSON-RPC message. */
const notRpc = fc
  .oneof(fc.integer(), fc.constant(null), fc.record({ id: fc.integer(), method: fc.constant('ping') }), fc.record({ jsonrpc: fc.constant('1.0') }))
  .map((value): Line => ({ kind: 'refused', text: JSON.stringify(value), code: -32600 }));
const overlong = fc.string({ minLength: MAX_LINE + 1, maxLength: 3 * MAX_LINE }).map((s): Line => ({ kind: 'refused', text: s.replace(/\n/g, ' '), code: -32600 }));
const blank = fc.constantFrom('', ' ', '\t', '\r').map((text): Line => ({ kind: 'blank', text }));

/** The bytes of `lines`, cut at the given points. */
function chunks(lines: Line[], cuts: number[]): Buffer[] {
  const all = Buffer.from(lines.map((l) => `${l.text}\n`).join(''));
  const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of [...points, all.length]) {
    if (p > from) out.push(all.subarray(from, p));
    from = Math.max(from, p);
  }
  return out;
}

test('any lines in any chunks: one outcome per non-blank line, in order, and the session goes on', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.oneof(message, garbage, notRpc, overlong, blank), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), async (lines, cuts) => {
      const stdin = new PassThrough();
      const outcomes: string[] = [];
      // Answers recorded as they are written, so they fall in order with the messages delivered.
      const stdout = new Writable({
        write(data: Buffer, _encoding, done) {
          for (const line of data.toString().split('\n').filter(Boolean)) outcomes.push(`refused ${(JSON.parse(line) as { error: { code: number } }).error.code}`);
          done();
        },
      });
      const transport = new StdioLineTransport(stdin, stdout, MAX_LINE);
      transport.onmessage = (m) => outcomes.push(`message ${JSON.stringify((m as { id?: unknown }).id)}`);
      await transport.start();
      for (const chunk of chunks(lines, cuts)) stdin.write(chunk);
      await new Promise((resolve) => setImmediate(resolve));
      await transport.close();
      const expected = lines.flatMap((l) => (l.kind === 'message' ? [`message ${JSON.stringify(JSON.parse(l.text).id)}`] : l.kind === 'refused' ? [`refused ${l.code}`] : []));
      if (JSON.stringify(outcomes) !== JSON.stringify(expected)) throw new Error(`${JSON.stringify(outcomes)} != ${JSON.stringify(expected)}`);
    }),
    { numRuns: 300 },
  );
  t.pass();
});
