// The one handler shape every feature of a site uses. Polka's request adds `path`, `search`, `query`
// and `originalUrl`; features treat `path` as the decoded pathname of the request.
import type { ServerResponse } from 'node:http';
import type { Middleware, NextHandler, Request as PolkaRequest } from 'polka';

export type Request = PolkaRequest;
export type Response = ServerResponse;
export type Next = NextHandler;
export type Handler = Middleware;

/** What a feature may know about the site it serves, fixed at startup. */
export interface SiteContext {
  /** Directory of the config file; relative paths in the config resolve against it. */
  baseDir: string;
  /** `development` unless NODE_ENV is `production`. */
  mode: 'development' | 'production';
  /** Writes a warning line to stderr (prefixed with the site label). */
  warn(message: string): void;
}
