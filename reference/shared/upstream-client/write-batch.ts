// Request heads are written once per turn of the event loop, after every socket that was ready in that
// turn has been read, instead of one write as each request comes in: the upstreams (often on the same
// cores) are then woken once for a batch of requests rather than once per request, and preempt the
// gateway less. A head waits at most for the rest of the turn.
import type { Socket } from 'node:net';

const pending: (Socket | string)[] = [];

function flush(): void {
  for (let i = 0; i < pending.length; i += 2) {
    const socket = pending[i] as Socket;
    if (!socket.destroyed) socket.write(pending[i + 1] as string, 'latin1');
  }
  pending.length = 0;
}

/** Writes `head` (latin1) on `socket` at the end of this turn of the event loop. */
export function writeAtTurnEnd(socket: Socket, head: string): void {
  if (pending.length === 0) setImmediate(flush);
  pending.push(socket, head);
}
