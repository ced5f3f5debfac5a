// The mailer against real servers on 127.0.0.1: smtp-server receiving (STARTTLS off, as its built-in
// certificate has expired, except in the TLS case), a TCP server that never answers, a port nobody listens on.
import test from 'ava';
import { MailError, type MailErrorCode } from './mail-error.ts';
import { mailLinks } from './mail-links.ts';
import { composeMail } from './mail-messages.ts';
import { createMailer } from './mailer.ts';
import { EMPTY_SMTP_SETTINGS, type SmtpSettings } from './smtp-settings.ts';
import { closedPort, startSilentServer, startSmtpServer } from './test-smtp.ts';

const CREDENTIALS = { user: 'mailer', pass: 'pässwörd 42' };
const TOKEN = 'Zm9vYmFyYmF6cXV4LS1fX2FiY2RlZmdoaWprbG1ub3Bx';
const links = mailLinks('http://recipes.test:8080/app');

const settingsFor = (port: number, over: Partial<SmtpSettings> = {}): SmtpSettings => ({
  smtpHost: '127.0.0.1',
  smtpPort: port,
  smtpUser: CREDENTIALS.user,
  smtpPass: CREDENTIALS.pass,
  smtpFrom: 'Recipes <recipes@recipes.test>',
  ...over,
});

const verification = (to: string) => composeMail('verification', { to, name: 'Zoë', url: links.verification(TOKEN), validForMs: 86_400_000 });

async function failure(run: Promise<unknown>): Promise<MailErrorCode | 'sent'> {
  try {
    await run;
    return 'sent';
  } catch (err) {
    if (err instanceof MailError) return err.code;
    throw err;
  }
}

test('a verification mail arrives with its recipient, sender, subject and link (authenticated)', async (t) => {
  const smtp = await startSmtpServer({ credentials: CREDENTIALS });
  try {
    const mailer = createMailer(settingsFor(smtp.port));
    t.true(mailer.configured);
    const sent = await mailer.send(verification('zoë.new@example.test'));
    t.deepEqual(sent.accepted, ['zoë.new@example.test']);
    t.is(smtp.received.length, 1);
    const [mail] = smtp.received;
    t.deepEqual(mail!.rcptTo, ['zoë.new@example.test']);
    t.is(mail!.mailFrom, 'recipes@recipes.test');
    t.is(mail!.user, CREDENTIALS.user);
    t.is(mail!.headers.get('subject'), 'Confirm your email address for Recipes');
    const url = `http://recipes.test:8080/app/api/auth/verify-email?token=${TOKEN}`;
    t.true(mail!.text.includes(`\n${url}\n`), mail!.text);
    t.true(mail!.html.includes(`<a href="${url}">`), mail!.html);
    t.true(mail!.text.startsWith('Hello Zoë,\n'));
  } finally {
    await smtp.close();
  }
});

test('without smtpUser no authentication is attempted; without smtpFrom the sender falls back', async (t) => {
  const smtp = await startSmtpServer();
  try {
    const mailer = createMailer(settingsFor(smtp.port, { smtpUser: '', smtpPass: 'ignored', smtpFrom: '' }));
    t.is(mailer.from, 'no-reply@127.0.0.1');
    await mailer.send(composeMail('reset', { to: 'a@example.test', url: links.reset(TOKEN), validForMs: 3_600_000 }));
    t.is(smtp.received[0]?.user, undefined);
    t.is(smtp.received[0]?.headers.get('subject'), 'Reset your Recipes password');
    t.true(smtp.received[0]?.text.includes(`http://recipes.test:8080/app/reset-password?token=${TOKEN}`));
    t.is(createMailer(settingsFor(smtp.port, { smtpUser: 'me@mail.test', smtpFrom: '' })).from, 'me@mail.test');
  } finally {
    await smtp.close();
  }
});

test('wrong credentials: MailError auth, nothing delivered', async (t) => {
  const smtp = await startSmtpServer({ credentials: CREDENTIALS });
  try {
    const mailer = createMailer(settingsFor(smtp.port, { smtpPass: 'wrong' }));
    t.is(await failure(mailer.send(verification('a@example.test'))), 'auth');
    t.is(smtp.received.length, 0);
  } finally {
    await smtp.close();
  }
});

test('a refused recipient: MailError rejected', async (t) => {
  const smtp = await startSmtpServer({ credentials: CREDENTIALS, refuseDomain: 'nowhere.test' });
  try {
    t.is(await failure(createMailer(settingsFor(smtp.port)).send(verification('ghost@nowhere.test'))), 'rejected');
    t.is(smtp.received.length, 0);
  } finally {
    await smtp.close();
  }
});

test('a server that accepts the connection and never answers: MailError timeout within the bound', async (t) => {
  const silent = await startSilentServer();
  try {
    const timeoutMs = 700;
    const started = performance.now();
    const code = await failure(createMailer(settingsFor(silent.port), { timeoutMs }).send(verification('a@example.test')));
    const elapsed = performance.now() - started;
    t.is(code, 'timeout');
    t.true(elapsed >= timeoutMs - 50 && elapsed < timeoutMs + 1500, `took ${elapsed.toFixed(0)} ms`);
  } finally {
    await silent.close();
  }
});

test('nobody listening on the port: MailError connection', async (t) => {
  const port = await closedPort();
  t.is(await failure(createMailer(settingsFor(port), { timeoutMs: 2000 }).send(verification('a@example.test'))), 'connection');
});

test('STARTTLS offered with an expired certificate: MailError tls', async (t) => {
  const smtp = await startSmtpServer({ credentials: CREDENTIALS, startTls: true });
  try {
    t.is(await failure(createMailer(settingsFor(smtp.port), { timeoutMs: 3000 }).send(verification('a@example.test'))), 'tls');
    t.is(smtp.received.length, 0);
  } finally {
    await smtp.close();
  }
});

test('empty SMTP settings: not configured, send refuses with not-configured', async (t) => {
  for (const settings of [EMPTY_SMTP_SETTINGS, { ...settingsFor(25), smtpHost: '  ' }]) {
    const mailer = createMailer(settings);
    t.false(mailer.configured);
    t.is(mailer.from, undefined);
    t.is(await failure(mailer.send(verification('a@example.test'))), 'not-configured');
  }
});

test('an unusable port or timeout is refused when the mailer is built, naming the field', (t) => {
  for (const smtpPort of [0, 65_536, 1.5, -25]) {
    const err = t.throws(() => createMailer(settingsFor(smtpPort)), { instanceOf: MailError });
    t.is(err?.code, 'invalid-settings');
    t.regex(err?.message ?? '', /^smtpPort: /);
  }
  t.throws(() => createMailer(settingsFor(25), { timeoutMs: 0 }), { instanceOf: MailError, message: /^timeoutMs: / });
});
