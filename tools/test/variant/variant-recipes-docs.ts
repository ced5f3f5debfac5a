// The variant's own API documentation (own-docs): one page made on the server, every endpoint in a table, and a
// small form that calls the public GET endpoints from the page — no OpenAPI document, no Swagger UI.
const ENDPOINTS: [string, string, string, string][] = [
  ['POST', '/api/auth/register', 'Create an account (checks allowRegistration and inviteToken)', 'public'],
  ['GET', '/api/auth/verify-email', 'Confirm an email address (?code=)', 'public'],
  ['POST', '/api/auth/login', 'Sign in: an access token', 'public'],
  ['GET', '/api/auth/me', 'The signed-in user', 'bearer'],
  ['POST', '/api/auth/forgot-password', 'Ask for a reset link', 'public'],
  ['POST', '/api/auth/reset-password', 'Set a new password with a reset code', 'public'],
  ['GET', '/api/admin/setup', 'Whether an administrator exists', 'public'],
  ['POST', '/api/admin/setup', 'Create the first administrator', 'public'],
  ['GET', '/api/admin/settings', 'Application settings', 'admin'],
  ['PATCH', '/api/admin/settings', 'Change settings', 'admin'],
  ['GET', '/api/admin/users', 'Every user', 'admin'],
  ['PATCH', '/api/admin/users/:id', 'Change a role or switch an account on or off', 'admin'],
  ['DELETE', '/api/admin/users/:id', 'Delete a user', 'admin'],
  ['POST', '/api/admin/invites', 'Create an invitation link', 'admin'],
  ['GET', '/api/admin/invites', 'Open invitations', 'admin'],
  ['DELETE', '/api/admin/invites/:id', 'Withdraw an invitation', 'admin'],
  ['GET', '/api/recipes', 'Recipes (q, tag, category, mine=1, page, limit)', 'bearer'],
  ['POST', '/api/recipes', 'Add a recipe', 'bearer'],
  ['GET', '/api/recipes/:id', 'One recipe (?yield= scales it)', 'public when isPublic'],
  ['PATCH', '/api/recipes/:id', 'Change a recipe', 'bearer'],
  ['DELETE', '/api/recipes/:id', 'Delete a recipe', 'bearer'],
  ['POST', '/api/recipes/:id/photo', 'Upload the main photo (field image)', 'bearer'],
  ['POST', '/api/recipes/:id/steps/:order/photo', "Upload a step's photo (field image)", 'bearer'],
  ['POST', '/api/recipes/import-url', 'Read a recipe from a web page', 'bearer'],
  ['GET', '/api/recipes/public', 'Public recipes', 'public'],
  ['GET', '/api/recipes/tags', 'Every tag', 'public'],
  ['POST', '/api/recipes/:id/saved', 'Save to favorites', 'bearer'],
  ['DELETE', '/api/recipes/:id/saved', 'Remove from favorites', 'bearer'],
  ['GET', '/api/categories', 'Categories', 'bearer'],
];

const html = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const rows = ENDPOINTS.map(([method, path, what, access]) => `<tr><td><code>${method}</code></td><td><code>${html(path)}</code></td><td>${html(what)}</td><td>${access}</td></tr>`).join('\n');
const tryable = ENDPOINTS.filter(([method, path, , access]) => method === 'GET' && access === 'public' && !path.includes(':'))
  .map(([, path]) => `<option>${path}</option>`)
  .join('');

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Recipes API</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td{border-bottom:1px solid #ddd;padding:.3em .8em}</style></head>
<body>
<h1>Recipes API</h1>
<p>Every path is under <code>/api</code>. Send <code>Authorization: Bearer &lt;accessToken&gt;</code> where the access is bearer or admin.</p>
<table>
<tr><th>Method</th><th>Path</th><th>What it does</th><th>Access</th></tr>
${rows}
</table>
<h2>Try it</h2>
<form id="try"><select name="path">${tryable}</select> <button>Send</button></form>
<pre id="answer"></pre>
<script>
document.getElementById('try').addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await fetch(new FormData(event.target).get('path'));
  document.getElementById('answer').textContent = res.status + '\\n' + (await res.text());
});
</script>
</body>
</html>
`;
