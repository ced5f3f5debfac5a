import test from 'ava';
import fc from 'fast-check';
import { MailError } from './mail-error.ts';
import { LINK_PATHS, mailLinks, resolveAppUrl } from './mail-links.ts';

test('links: verification at the API endpoint, reset and invite at front-end pages', (t) => {
  const links = mailLinks('https://cook.example.org');
  t.is(links.verification('abc_-1'), 'https://cook.example.org/api/auth/verify-email?token=abc_-1');
  t.is(links.reset('abc_-1'), 'https://cook.example.org/reset-password?token=abc_-1');
  t.is(links.invite('abc_-1'), 'https://cook.example.org/register?inviteToken=abc_-1');
});

test('property: the token comes back intact from the link\'s query, under any base path', (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...(Object.keys(LINK_PATHS) as (keyof typeof LINK_PATHS)[])), fc.string(), fc.webPath(), (kind, token, path) => {
      const base = resolveAppUrl(`https://cook.example.org${path}`, 3000);
      const url = new URL(mailLinks(base)[kind](token));
      return url.searchParams.get(LINK_PATHS[kind].param) === token && url.pathname.endsWith(LINK_PATHS[kind].path);
    }),
  );
  t.pass();
});

test('APP_URL: unset or empty means http://localhost:<PORT>; trailing slashes go; a path stays', (t) => {
  t.is(resolveAppUrl(undefined, 3000), 'http://localhost:3000');
  t.is(resolveAppUrl('', 4123), 'http://localhost:4123');
  t.is(resolveAppUrl('https://cook.example.org/', 3000), 'https://cook.example.org');
  t.is(resolveAppUrl('https://cook.example.org//', 3000), 'https://cook.example.org');
  t.is(resolveAppUrl(' http://10.0.0.5:8080/recipes/ ', 3000), 'http://10.0.0.5:8080/recipes');
  t.is(resolveAppUrl('HTTPS://Cook.Example.org:443/Recipes', 3000), 'https://cook.example.org/Recipes');
});

test('APP_URL that is not an absolute http(s) URL without query, fragment or credentials is refused', (t) => {
  for (const value of ['cook.example.org', '/recipes', 'ftp://cook.example.org', 'https://cook.example.org/?a=1', 'https://cook.example.org/#x', 'https://u:p@cook.example.org']) {
    const err = t.throws(() => resolveAppUrl(value, 3000), { instanceOf: MailError });
    t.is(err?.code, 'invalid-settings');
    t.true(err?.message.startsWith(`APP_URL: ${JSON.stringify(value)} `));
  }
});
