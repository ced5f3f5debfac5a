// Reading a server-sent event stream (text/event-stream) as a browser's EventSource would, plus polling.
import type { IncomingMessage } from 'node:http';

export interface SseMessage {
  /** The `event:` field; undefined means the default type `message`. */
  event: string | undefined;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** Milliseconds since the reader was created, when the blank line ending the message arrived. */
  at: number;
}

/** Collects the messages and comment lines of an open event-stream response until it ends. */
export class EventStreamReader {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  readonly response: IncomingMessage;
  ended = false;
  #rest = '';
  #event: string | undefined;
  #data: string[] = [];
  readonly #start = Date.now();

  constructor(response: IncomingMessage) {
    this.response = response;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.#feed(chunk));
    response.once('end', () => {
      this.ended = true;
    });
    response.once('close', () => {
      this.ended = true;
    });
    response.once('error', () => {
      this.ended = true;
    });
  }

  #feed(chunk: string): void {
    const lines = (this.#rest + chunk).split(/\r\n|\r|\n/);
    this.#rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        // A message is dispatched only when it carries data (as EventSource does).
        if (this.#data.length > 0) this.messages.push({ event: this.#event, data: this.#data.join('\n'), at: Date.now() - this.#start });
        this.#event = undefined;
        this.#data = [];
      } else if (line.startsWith(':')) {
        this.comments.push(line);
      } else {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') this.#event = value;
        else if (field === 'data') this.#data.push(value);
      }
    }
  }

  close(): void {
    this.response.destroy();
  }
}

/** Polls `condition` every 25 ms until it holds or `ms` pass; tells which. */
export async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
