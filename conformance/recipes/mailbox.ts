// A real SMTP server of the suite's (smtp-server) on 127.0.0.1 that keeps every message it receives, parsed
// with mailparser, so cases can wait for the mail sent to an address and follow the links in it. A case points
// the recipe manager at it through PATCH /api/admin/settings.
import { Worker } from 'node:worker_threads';
import type { CaseContext } from '../harness/case-context.ts';
import { urlsIn } from './shapes.ts';

export interface Mail {
  /** The envelope sender (MAIL FROM). */
  from: string;
  /** The From header as text. */
  fromHeader: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every absolute http(s) URL in the text and the HTML (href values included). */
  links: string[];
}

/** The URLs in a mail's text and HTML, each once, in order. */
function linksOf(text: string, html: string): string[] {
  const found = [...`${text}\n${html}`.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0].replace(/&amp;/g, '&').replace(/[.,;)\]]+$/, ''));
  return [...new Set(found.flatMap((u) => urlsIn(u)))];
}

/** The SMTP server, run on a thread of its own: the worker's main thread may be busy for seconds (other files'
 * cases share it), and a server that answers late makes the target's mail time out. It posts its port, then
 * each message received, with the parts a Mail is made of. Plain JavaScript (an eval'd worker), its packages
 * resolved from the project. */
const SERVER_THREAD = `
const { parentPort } = require('node:worker_threads');
const { SMTPServer } = require('smtp-server');
const { simpleParser } = require('mailparser');
const server = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  disableReverseLookup: true,
  authOptional: true,
  allowInsecureAuth: true,
  logger: false,
  size: 10 * 1024 * 1024,
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (parsed) => {
        parentPort.postMessage({
          mail: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            fromHeader: parsed.from ? parsed.from.text : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject || '',
            text: parsed.text || '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          },
        });
        callback();
      },
      (err) => callback(err),
    );
  },
});
server.once('error', (err) => parentPort.postMessage({ error: err.message }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.server.address().port }));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

type FromThread = { port: number } | { error: string } | { mail: Omit<Mail, 'links'> };

export class Mailbox {
  readonly received: Mail[] = [];
  readonly #waiters = new Set<() => void>();

  private constructor(
    readonly thread: Worker,
    readonly port: number,
  ) {}

  /** A mailbox of the case's own, closed when the case ends. */
  static async open(c: CaseContext): Promise<Mailbox> {
    const thread = new Worker(SERVER_THREAD, { eval: true });
    let box: Mailbox | undefined;
    const port = await new Promise<number>((resolve, reject) => {
      thread.once('error', reject);
      thread.on('message', (message: FromThread) => {
        if ('port' in message) resolve(message.port);
        else if ('error' in message) reject(new Error(`the suite's SMTP server: ${message.error}`));
        // No mail comes before the port is known: nothing could send it.
        else box?.deliver({ ...message.mail, links: linksOf(message.mail.text, message.mail.html) });
      });
    }).catch(async (err: unknown) => {
      await thread.terminate();
      throw err;
    });
    box = new Mailbox(thread, port);
    c.defer(() => box.close());
    c.note(`# an SMTP server of the suite's listens on 127.0.0.1:${box.port}`);
    return box;
  }

  deliver(mail: Mail): void {
    this.received.push(mail);
    for (const wake of this.#waiters) wake();
  }

  /** The first mail to `address` (after the first `skip` of them), waiting up to `timeoutMs`; undefined when
   * none came (whether that fails the clause or only the case's setup is the case's call). */
  async mailTo(address: string, timeoutMs = 10_000, skip = 0): Promise<Mail | undefined> {
    const find = () => this.received.filter((m) => m.to.includes(address.toLowerCase()))[skip];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = find();
      if (mail) return mail;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  /** Closes the server and ends its thread (at once if it has not ended within a second). */
  async close(): Promise<void> {
    if (this.thread.threadId === -1) return; // ended already
    const ended = new Promise<void>((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.postMessage('close');
    const timer = setTimeout(() => void this.thread.terminate(), 1000);
    await ended;
    clearTimeout(timer);
  }
}
