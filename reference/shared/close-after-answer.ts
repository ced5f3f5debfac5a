// An answer sent before the request's body was all read (413, 415, a refused upload, an endpoint that takes
// no body) closes the connection after it, gracefully (a "lingering close", as nginx does): the answer says
// Connection: close, the server half-closes once it is sent, and reads and drops what the client still sends
// until the client closes too or LINGER_MS pass. Closing at once would close a socket with unread bytes, which
// resets it, and a reset can destroy the answer before the client has read it; keeping the connection for
// another request would make the client send the whole body first. Nothing is kept while lingering.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

const LINGER_MS = 5_000;

/** True while some of the request's body has not been read. */
function bodyPending(req: IncomingMessage): boolean {
  return !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}

/**
 * To call before writing an answer: when some of the body is unread, its rest is dropped as it comes, the
 * connection closes gracefully after the answer, and the headers to add are returned (Connection: close);
 * else nothing changes and no header is returned.
 */
export function closeAfterAnswer(req: IncomingMessage, ms = LINGER_MS): Record<string, string> {
  if (!bodyPending(req) || req.destroyed) return {};
  const socket = req.socket;
  // node:http ends the connection of a last answer with destroySoon (end, then destroy once written).
  socket.destroySoon = () => lingeringClose(socket, ms);
  req.resume();
  return { Connection: 'close' };
}

function lingeringClose(socket: Socket, ms: number): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}
