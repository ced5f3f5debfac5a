// A real SMTP server of the suite's (smtp-server) on 127.0.0.1 that keeps every message it receives, parsed
// with mailparser, so cases can wait for the mail sent to an address and follow the links in it. A case points
// the recipe manager at it through PATCH /api/admin/settings.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
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

export class Mailbox {
  readonly received: Mail[] = [];
  readonly #waiters = new Set<() => void>();

  private constructor(
    readonly server: SMTPServer,
    readonly port: number,
  ) {}

  /** A mailbox of the case's own, closed when the case ends. */
  static async open(c: CaseContext): Promise<Mailbox> {
    let box: Mailbox | undefined;
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      logger: false,
      size: 10 * 1024 * 1024,
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (parsed) => {
            const text = parsed.text ?? '';
            const html = typeof parsed.html === 'string' ? parsed.html : '';
            box?.deliver({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              fromHeader: parsed.from?.text ?? '',
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: parsed.subject ?? '',
              text,
              html,
              links: linksOf(text, html),
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    box = new Mailbox(server, (server.server.address() as AddressInfo).port);
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

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
