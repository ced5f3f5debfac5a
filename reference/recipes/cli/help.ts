// What `recipes --help` prints: the variables server-options.ts, auth/ and store/ read, and where the data goes.
import type { CommandName } from '../../shared/command-line.ts';
import { DEFAULT_JWT_EXPIRES_IN, MIN_JWT_SECRET_BYTES } from '../auth/index.ts';
import { DEFAULT_PORT } from '../server/index.ts';
import { DEFAULT_QUOTA } from '../server/recipe-quota.ts';

export const COMMAND: CommandName = { name: 'recipes', synopsis: 'recipes [--help]' };

export const USAGE = `Usage: ${COMMAND.synopsis}

The recipe manager's HTTP API (accounts, invites, recipes with photos, search, import from a URL) with its
OpenAPI document at /api/docs. Configured by environment variables; serves until SIGTERM or SIGINT.

Environment:
  JWT_SECRET              required: a random secret of at least ${MIN_JWT_SECRET_BYTES} bytes that signs the login tokens
  JWT_EXPIRES_IN          login token lifetime: seconds, or a number with s, m, h or d (default ${DEFAULT_JWT_EXPIRES_IN})
  PORT                    TCP port (default ${DEFAULT_PORT}; 0 picks a free one)
  RECIPES_HOST            address to listen on (default: all interfaces)
  APP_URL                 base of the links in mails (default http://localhost:<port>)
  RECIPES_DB_FILE         the data file (default data/recipes.json)
  RECIPES_UPLOADS_DIR     the photos' folder (default uploads)
  RECIPES_IMPORT_PRIVATE  allow: the import may fetch from private addresses (default refuse)
  RECIPES_QUOTA_RECIPES   recipes one user may keep (default ${DEFAULT_QUOTA.recipes})
  RECIPES_QUOTA_BYTES     bytes of recipe fields one user may keep (default ${DEFAULT_QUOTA.bytes})

Data: everything but the photos is one JSON file (RECIPES_DB_FILE, with <file>.lock beside it while a
process owns it); relative paths resolve from the working directory, and both folders are made at start.
SMTP and the other settings are kept in the data file and changed through the API.
`;
