// The page's HTTP client (catalog translate-web/client/*): JSON in and out; 502, 503 and 504 are retried at
// most 3 times with the same body after 250, 500 and 1000 ms (Retry-After ignored); nothing else is retried.

export const RETRY_STATUSES = [502, 503, 504];
export const RETRY_DELAYS_MS = [250, 500, 1000];

/** A failed call: `code` is the gateway's gRPC code name, or NETWORK_ERROR / HTTP_<status> when none came. */
export class ApiError extends Error {
  constructor(code, message, httpStatus, attempts) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = httpStatus;
    this.attempts = attempts;
  }
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function errorFrom(response, attempts) {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text);
    if (typeof error?.code === 'string') return new ApiError(error.code, String(error.message ?? ''), response.status, attempts);
  } catch {
    // Not the gateway's error body (a proxy's page, say): fall through.
  }
  return new ApiError(`HTTP_${response.status}`, response.statusText || text.slice(0, 200), response.status, attempts);
}

/**
 * `fetch` and `sleep` are replaceable for tests; `onAttempt(n)` is told of every attempt (1-based).
 * `request` resolves to `{ body, attempts }` or rejects with an ApiError.
 */
export function createApiClient({ baseUrl = '', fetch = globalThis.fetch.bind(globalThis), sleep = wait, onAttempt = () => {} } = {}) {
  async function request(method, path, body) {
    const init = { method, headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    for (let attempt = 1; ; attempt++) {
      onAttempt(attempt);
      let response;
      try {
        response = await fetch(baseUrl + path, init);
      } catch (err) {
        throw new ApiError('NETWORK_ERROR', err?.message ?? String(err), 0, attempt);
      }
      if (response.ok) return { body: await response.json(), attempts: attempt };
      const retry = RETRY_STATUSES.includes(response.status) && attempt <= RETRY_DELAYS_MS.length;
      const error = await errorFrom(response, attempt);
      if (!retry) throw error;
      await sleep(RETRY_DELAYS_MS[attempt - 1]);
    }
  }
  return {
    request,
    get: (path) => request('GET', path, undefined),
    post: (path, body) => request('POST', path, body),
  };
}
