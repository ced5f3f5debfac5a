// The site's request- and answer-side sections (requestTransform, responseTransform, securityHeaders, cors,
// maskErrors, limits; shape-checked by the schema) into its SiteFiltersConfig: defaults filled in, header
// names lower-cased, `true` turned into the defaults, `false` into nothing.
import { ConfigError } from './config-error.ts';
import type { CorsConfig, HeaderTransformConfig, SiteFiltersConfig } from './gateway-config.ts';

type RawTransform = { setHeaders?: Record<string, string>; removeHeaders?: string[] };

export interface RawFilterSections {
  requestTransform?: false | RawTransform;
  responseTransform?: false | RawTransform;
  securityHeaders?: boolean | {
    contentTypeOptions?: boolean;
    frameOptions?: 'DENY' | 'SAMEORIGIN' | false;
    referrerPolicy?: string | false;
    contentSecurityPolicy?: string;
    hstsMaxAgeSecs?: number;
  };
  cors?: false | {
    allowOrigins: string[];
    allowMethods?: string[];
    allowHeaders?: string[];
    exposeHeaders?: string[];
    allowCredentials?: boolean;
    maxAgeSecs?: number;
  };
  maskErrors?: boolean | { statuses?: number[] };
  limits?: false | { maxBodyBytes?: number; upstreamTimeoutMs?: number };
}

/** The defaults of these sections (the schema's `default` values say the same; a test holds them equal). */
export const FILTER_DEFAULTS = Object.freeze({
  frameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  hstsMaxAgeSecs: 31_536_000,
  corsMethods: Object.freeze(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']),
  corsMaxAgeSecs: 600,
});

type At = (...keys: (string | number)[]) => string;

export function normalizeFilters(raw: RawFilterSections, at: At): SiteFiltersConfig | undefined {
  const filters: SiteFiltersConfig = {
    requestTransform: transform(raw.requestTransform),
    responseTransform: transform(raw.responseTransform),
    securityHeaders: securityHeaders(raw.securityHeaders),
    cors: cors(raw.cors, at),
    maskErrors: maskErrors(raw.maskErrors),
    limits: raw.limits ? { maxBodyBytes: raw.limits.maxBodyBytes, upstreamTimeoutMs: raw.limits.upstreamTimeoutMs } : undefined,
  };
  return Object.values(filters).some((v) => v !== undefined) ? filters : undefined;
}

function transform(raw: RawFilterSections['requestTransform']): HeaderTransformConfig | undefined {
  if (!raw) return undefined;
  const set = Object.entries(raw.setHeaders ?? {}).map(([name, value]): [string, string] => [name.toLowerCase(), value]);
  const remove = (raw.removeHeaders ?? []).map((name) => name.toLowerCase());
  return set.length === 0 && remove.length === 0 ? undefined : { set, remove };
}

function securityHeaders(raw: RawFilterSections['securityHeaders']): SiteFiltersConfig['securityHeaders'] {
  if (raw === undefined || raw === false) return undefined;
  const o = raw === true ? {} : raw;
  const headers: [string, string][] = [];
  if (o.contentTypeOptions ?? true) headers.push(['x-content-type-options', 'nosniff']);
  const frame = o.frameOptions ?? FILTER_DEFAULTS.frameOptions;
  if (frame !== false) headers.push(['x-frame-options', frame]);
  const referrer = o.referrerPolicy ?? FILTER_DEFAULTS.referrerPolicy;
  if (referrer !== false) headers.push(['referrer-policy', referrer]);
  if (o.contentSecurityPolicy !== undefined) headers.push(['content-security-policy', o.contentSecurityPolicy]);
  return { headers, hstsMaxAgeSecs: o.hstsMaxAgeSecs ?? FILTER_DEFAULTS.hstsMaxAgeSecs };
}

function cors(raw: RawFilterSections['cors'], at: At): CorsConfig | undefined {
  if (!raw) return undefined;
  const any = raw.allowOrigins.includes('*');
  if (any && raw.allowOrigins.length > 1) throw new ConfigError(at('cors', 'allowOrigins'), 'lists "*" with other origins: "*" alone allows any');
  return {
    origins: any ? '*' : raw.allowOrigins.map((o) => o.toLowerCase()),
    methods: (raw.allowMethods ?? FILTER_DEFAULTS.corsMethods).map((m) => m.toUpperCase()),
    headers: raw.allowHeaders?.map((h) => h.toLowerCase()),
    expose: (raw.exposeHeaders ?? []).map((h) => h.toLowerCase()),
    credentials: raw.allowCredentials ?? false,
    maxAgeSecs: raw.maxAgeSecs ?? FILTER_DEFAULTS.corsMaxAgeSecs,
  };
}

function maskErrors(raw: RawFilterSections['maskErrors']): SiteFiltersConfig['maskErrors'] {
  if (raw === undefined || raw === false) return undefined;
  const statuses = raw === true || raw.statuses === undefined ? Array.from({ length: 100 }, (_, i) => 500 + i) : [...new Set(raw.statuses)];
  return { statuses };
}
