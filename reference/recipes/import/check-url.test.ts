// The URLs the import accepts, and the status the API answers for each import error (one table, as the code).
import test from 'ava';
import { checkImportUrl, MAX_URL_LENGTH } from './check-url.ts';
import { IMPORT_ERROR_CODES, ImportError, importErrorStatus } from './import-error.ts';
import { normalizeImportOptions } from './import-options.ts';

// [input, the URL fetched]
const accepted: [string, string][] = [
  ['https://cook.example/r/1', 'https://cook.example/r/1'],
  ['  http://cook.example  ', 'http://cook.example/'],
  ['https://cook.example/r/1#steps', 'https://cook.example/r/1'],
  ['HTTPS://Cook.Example:8443/crème brûlée?x=1', 'https://cook.example:8443/cr%C3%A8me%20br%C3%BBl%C3%A9e?x=1'],
  ['http://[::1]:3000/r', 'http://[::1]:3000/r'],
  [`https://cook.example/${'a'.repeat(MAX_URL_LENGTH - 21)}`, `https://cook.example/${'a'.repeat(MAX_URL_LENGTH - 21)}`],
];
for (const [input, url] of accepted) {
  test(`accepted: ${input.slice(0, 50)}`, (t) => {
    t.is(checkImportUrl(input).href, url);
  });
}

const refused: unknown[] = ['ftp://cook.example/r', 'file:///etc/passwd', 'data:text/html,<p>', 'https://u:p@cook.example/', 'https://u@cook.example/', 'cook.example/r', 'http://', null, undefined, {}];
for (const input of refused) {
  test(`refused: ${String(input)}`, (t) => {
    t.is(t.throws(() => checkImportUrl(input), { instanceOf: ImportError })?.code, 'invalid-url');
  });
}

const statuses: Record<(typeof IMPORT_ERROR_CODES)[number], number> = {
  'invalid-url': 400,
  'fetch-failed': 422,
  timeout: 422,
  'too-large': 422,
  'not-html': 422,
  'no-recipe': 422,
};
test('every import error code has its API status (catalog recipes/import/failures)', (t) => {
  t.deepEqual(Object.fromEntries(IMPORT_ERROR_CODES.map((code) => [code, importErrorStatus(code)])), statuses);
});

test('default limits: 10 s overall, 5 s to connect, 5 MiB, 5 redirects', (t) => {
  t.like(normalizeImportOptions(), { timeoutMs: 10_000, connectTimeoutMs: 5_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 });
  t.throws(() => normalizeImportOptions({ maxBytes: 1.5 }), { instanceOf: RangeError, message: /maxBytes .* got 1\.5/ });
  t.throws(() => normalizeImportOptions({ userAgent: 'a\nb' }), { instanceOf: RangeError, message: /userAgent/ });
});
