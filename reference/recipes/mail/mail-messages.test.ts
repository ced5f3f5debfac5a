import test from 'ava';
import { composeMail, escapeHtml, formatDuration } from './mail-messages.ts';

const URL_WITH_AMP = 'https://cook.example.org/register?inviteToken=a&b';

test('each kind has its subject, the link in text and HTML, and its validity', (t) => {
  const cases = [
    ['verification', 'Confirm your email address for Recipes', 86_400_000, '24 hours'],
    ['reset', 'Reset your Recipes password', 3_600_000, '1 hour'],
    ['invite', 'You are invited to Recipes', 604_800_000, '7 days'],
  ] as const;
  for (const [kind, subject, validForMs, validity] of cases) {
    const mail = composeMail(kind, { to: 'a@example.test', url: URL_WITH_AMP, validForMs });
    t.is(mail.to, 'a@example.test');
    t.is(mail.subject, subject);
    t.true(mail.text.includes(`\n${URL_WITH_AMP}\n`));
    t.true(mail.text.includes(`works for ${validity} and only once`));
    t.true(mail.html.includes('<a href="https://cook.example.org/register?inviteToken=a&amp;b">'));
    t.true(mail.text.startsWith('Hello,\n'));
  }
});

test('the name is escaped in the HTML and kept as is in the text', (t) => {
  const mail = composeMail('verification', { to: 'a@example.test', name: 'Zoë <b>"&\'', url: 'https://x.test/', validForMs: 1 });
  t.true(mail.text.startsWith('Hello Zoë <b>"&\',\n'));
  t.true(mail.html.includes('<p>Hello Zoë &lt;b&gt;&quot;&amp;&#39;,</p>'));
  t.false(mail.html.includes('<b>'));
});

test('durations read naturally', (t) => {
  t.is(formatDuration(60_000), '1 minute');
  t.is(formatDuration(90_000), '2 minutes');
  t.is(formatDuration(1), '1 minute');
  t.is(formatDuration(3_600_000), '1 hour');
  t.is(formatDuration(86_400_000), '24 hours');
  t.is(formatDuration(2 * 86_400_000), '2 days');
  t.is(formatDuration(604_800_000), '7 days');
  t.is(escapeHtml('<a href="x">&\'</a>'), '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
});
