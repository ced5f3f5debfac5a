// HTTP Basic authentication. Passwords are plain text in the config, checked in constant time
// (shared/secret-check.ts).
import { passwordCheck } from '../../shared/secret-check.ts';
import type { BasicAuthOptions } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';

const UNAUTHORIZED = 'Unauthorized';

export async function createBasicAuth(options: BasicAuthOptions): Promise<Handler> {
  const { default: parseAuth } = await import('basic-auth');
  const matches = passwordCheck(options.users);
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': UNAUTHORIZED.length,
  };
  if (options.challenge) {
    headers['WWW-Authenticate'] = `Basic realm="${options.realm.replace(/["\\]/g, '\\$&')}"`;
  }

  return (req, res, next) => {
    const credentials = parseAuth(req);
    if (credentials && matches(credentials.name, credentials.pass)) return next();
    res.writeHead(401, headers);
    res.end(req.method === 'HEAD' ? undefined : UNAUTHORIZED);
  };
}
