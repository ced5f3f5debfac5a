// A real SMTP server of the suite's (smtp-server) on 127.0.0.1 that keeps every message it receives, parsed
// with mailparser, so cases can wait for the mail sent to an address and follow the links in it. A case points
// the recipe manager at it through PATCH /api/admin/settings.
import type { CaseContext } from '../harness/case-context.ts';
import { type ThreadServer, threadServer } from '../harness/thread-server.ts';
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

/** The SMTP server, run on a thread of its own (thread-server.ts): a server that answers late makes the
 * target's mail time out. It posts its port, then each message received, with the parts a Mail is made of. */
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

export class Mailbox {
  readonly received: Mail[] = [];
  readonly #waiters = new Set<() => void>();
  #server: ThreadServer | undefined;

  /** A mailbox of the case's own, closed when the case ends. */
  static async open(c: CaseContext): Promise<Mailbox> {
    const box = new Mailbox();
    box.#server = await threadServer("the suite's SMTP server", SERVER_THREAD, undefined, (message) => {
      const mail = (message as { mail: Omit<Mail, 'links'> }).mail;
      box.deliver({ ...mail, links: linksOf(mail.text, mail.html) });
    });
    c.defer(() => box.close());
    c.note(`# an SMTP server of the suite's listens on 127.0.0.1:${box.port}`);
    return box;
  }

  get port(): number {
    return this.#server!.port;
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

  close(): Promise<void> {
    return this.#server?.close() ?? Promise.resolve();
  }
}
