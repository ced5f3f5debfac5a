// HTTP Basic authentication. Passwords are plain text in the config; both sides are hashed to a fixed
// length first so timingSafeEqual can compare them, and an unknown user costs the same as a wrong password.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { BasicAuthOptions } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';

const UNAUTHORIZED = 'Unauthorized';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export async function createBasicAuth(options: BasicAuthOptions): Promise<Handler> {
  const { default: parseAuth } = await import('basic-auth');
  const expected = new Map<string, Buffer>();
  for (const [name, password] of options.users) expected.set(name, digest(password));
  // Compared against when the user is unknown, so the timing does not reveal which names exist.
  const decoy = digest(`decoy:${Math.random()}`);
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': UNAUTHORIZED.length,
  };
  if (options.challenge) {
    headers['WWW-Authenticate'] = `Basic realm="${options.realm.replace(/["\\]/g, '\\$&')}"`;
  }

  return (req, res, next) => {
    const credentials = parseAuth(req);
    if (credentials) {
      const wanted = expected.get(credentials.name);
      const same = timingSafeEqual(digest(credentials.pass), wanted ?? decoy);
      if (same && wanted !== undefined) return next();
    }
    res.writeHead(401, headers);
    res.end(req.method === 'HEAD' ? undefined : UNAUTHORIZED);
  };
}
