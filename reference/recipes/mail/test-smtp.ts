// Test servers for the mailer: a real SMTP server (smtp-server) on 127.0.0.1 that keeps what it receives, a TCP
// server that accepts connections and never says a word, and a small reader of the MIME messages nodemailer
// writes (multipart/alternative with quoted-printable or base64 parts).
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { freePorts } from '../../../conformance/harness/free-ports.ts';

export interface ReceivedMail {
  readonly mailFrom: string;
  readonly rcptTo: readonly string[];
  /** The user the client authenticated as, if any. */
  readonly user: string | undefined;
  readonly headers: ReadonlyMap<string, string>;
  readonly text: string;
  readonly html: string;
}

export interface TestSmtpServer {
  readonly port: number;
  readonly received: ReceivedMail[];
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** Credentials the server accepts; with them, authentication is required. */
  readonly credentials?: { user: string; pass: string };
  /** Offer STARTTLS with smtp-server's built-in certificate (expired: the upgrade fails). */
  readonly startTls?: boolean;
  /** Recipients under this domain are refused at RCPT TO (550). */
  readonly refuseDomain?: string;
}

export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const { credentials } = options;
  const server = new SMTPServer({
    disabledCommands: options.startTls ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: credentials === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(address, _session, callback) {
      if (options.refuseDomain && address.address.endsWith(`@${options.refuseDomain}`)) {
        callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          ...readMime(Buffer.concat(chunks).toString('latin1')),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A TCP server that accepts connections and never answers: an SMTP server that hangs before its greeting. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A port on 127.0.0.1 where nothing listens: outside the ephemeral range and claimed for the test process,
 * so no server of a concurrent test that listens on port 0 can take it. */
export async function closedPort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

// ---------------------------------------------------------------- MIME, enough for nodemailer's output

function readMime(raw: string): { headers: Map<string, string>; text: string; html: string } {
  const { headers, body } = splitEntity(raw);
  const parts = new Map<string, string>();
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary === undefined) {
    parts.set(type.split(';')[0]!.trim().toLowerCase(), decodeBody(headers, body));
  } else {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitEntity(chunk.replace(/^\r\n/, ''));
      const partType = (part.headers.get('content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
      parts.set(partType, decodeBody(part.headers, part.body.replace(/\r\n$/, '')));
    }
  }
  return { headers, text: parts.get('text/plain') ?? '', html: parts.get('text/html') ?? '' };
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? '' : raw.slice(end + 4) };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
  }
  return Buffer.from(body, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
}
