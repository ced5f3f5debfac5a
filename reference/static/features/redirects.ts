// Redirect rules: the request pathname (decoded, or as sent) must equal `from` exactly; the Location is `to`
// exactly as configured. Any method is redirected. Rules are indexed by `from` at startup.
import type { RedirectRule } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';

export function createRedirects(rules: RedirectRule[]): Handler {
  const byFrom = new Map<string, RedirectRule>();
  // The first rule for a path wins, as in a list read from the top.
  for (const rule of rules) if (!byFrom.has(rule.from)) byFrom.set(rule.from, rule);

  return (req, res, next) => {
    const rule = byFrom.get(req.path) ?? byFrom.get(req._parsedUrl?.pathname ?? req.path);
    if (!rule) return next();
    res.writeHead(rule.status, { Location: rule.to, 'Content-Length': 0 });
    res.end();
  };
}
