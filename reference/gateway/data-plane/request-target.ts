// The one request target every step sees: routing, rate limits, authentication, the cache key and forwarding
// all read the target this returns, never the client's raw one, so no two of them can read one request two
// ways (a cache stored under one path while the answer came from another route). Dot segments are removed
// (RFC 3986 5.2.4), their percent-encoded forms (`%2e`) too; a target climbing above the root, or not in
// origin form, is refused (400). Nothing else is decoded: `%2f`, `\` and empty segments (`//host/x`) stay as
// they are, and as they are they reach the upstream and the cache key. An absolute-form target
// (`http://host/path`, RFC 9112 3.2.2) is read as its path and query.

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/** The normalised origin-form target of `raw`, or undefined when it cannot be one (refused with 400). */
export function normalisedTarget(raw: string): string | undefined {
  let target = raw;
  if (!target.startsWith('/')) {
    if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return undefined;
    const url = new URL(target);
    target = `${url.pathname}${url.search}`;
  }
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  if (!path.includes('.') && !path.includes('%')) return target;
  const query = at === -1 ? '' : target.slice(at);
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (DOT.test(segment)) {
      if (last) out.push('');
    } else if (DOT_DOT.test(segment)) {
      if (out.length === 0) return undefined;
      out.pop();
      if (last) out.push('');
    } else out.push(segment);
  }
  return `/${out.join('/')}${query}`;
}
