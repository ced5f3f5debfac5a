// POST /shutdown (document 001, "Server process", "Limits"): the answer, no new connections, requests in
// flight finished (at most global.shutdownTimeoutSecs), the process gone. Three shutdowns (idle, draining a
// request, cut short by the timeout), each watched by the cases judging what it shows.
import { connect } from 'node:net';
import { check, type CaseContext, type HttpResponse } from '../harness/index.ts';
import { HttpClient } from '../harness/http-client.ts';
import { AdminClient, jsonObject, shown, successBody } from './admin-client.ts';
import { type Gateway, sharedGateway } from './gateway.ts';
import { sleep, waitFor } from './poll.ts';
import { GATEWAY } from './target.ts';
import { freshPath } from './traffic.ts';
import { sharedUpstreams } from './upstream.ts';

/** A shutdown the cases of this file watch together: a gateway (shared by the file) in front of an upstream
 * answering after `delayMs`, with one request in flight when POST /shutdown is sent, once. */
interface Scenario {
  g: Gateway;
  /** The answer to POST /shutdown, and when it was sent. */
  answer: HttpResponse;
  sentAt: number;
  /** What the request in flight got (none without a delay). */
  inflight: Promise<{ res: HttpResponse | undefined; err: Error | undefined }> | undefined;
}

const SCENARIOS = {
  /** Nothing in flight. */
  idle: { delayMs: 0, shutdownTimeoutSecs: undefined },
  /** A request of 3 s in flight, well within the timeout, which the setup states: the default is not given
   * (gateway/config/shutdown-timeout-default). */
  drain: { delayMs: 3000, shutdownTimeoutSecs: 20 },
  /** A request of 20 s in flight, a timeout of 1 s. */
  timeout: { delayMs: 20_000, shutdownTimeoutSecs: 1 },
} as const;

const shutdowns = new Map<string, Promise<Omit<Scenario, 'g'>>>();

async function scenario(c: CaseContext, name: keyof typeof SCENARIOS): Promise<Scenario> {
  const { delayMs, shutdownTimeoutSecs } = SCENARIOS[name];
  const [up] = await sharedUpstreams(name, 'up');
  up!.answer = () => ({ delayMs, body: 'slow answer' });
  const g = await sharedGateway(c, name, () => ({
    sites: [{ routes: [{ path: '/', targets: [up!.url] }] }],
    ...(shutdownTimeoutSecs === undefined ? {} : { global: { shutdownTimeoutSecs } }),
  }));
  let once = shutdowns.get(name);
  if (!once) {
    once = (async () => {
      // Not the case's clients: this belongs to every case watching the scenario.
      const site = new HttpClient(`http://127.0.0.1:${g.rendered.sitePorts[0]}`);
      let inflight: Scenario['inflight'];
      if (delayMs > 0) {
        const path = freshPath('');
        inflight = site.request({ path, timeoutMs: 30_000 }).then(
          (res) => ({ res, err: undefined }),
          (err: Error) => ({ res: undefined, err }),
        );
        if (!(await waitFor(() => up!.got(path).length > 0, 5000))) throw new Error(`the request ${path} did not reach the upstream`);
      }
      const admin = new AdminClient(new HttpClient(`http://${g.admin.address}`), g.admin.address, g.admin.token);
      const sentAt = Date.now();
      return { answer: await admin.post('/shutdown'), sentAt, inflight };
    })();
    shutdowns.set(name, once);
  }
  c.note(`# sent once for the cases sharing this gateway (${name}), ${delayMs > 0 ? `a request to the site in flight (the upstream answers after ${delayMs} ms):` : ''}`);
  c.note(`curl -sS -i -X POST ${g.admin.token ? `-H 'authorization: Bearer ${g.admin.token}' ` : ''}'http://${g.admin.address}/shutdown'`);
  return { g, ...(await c.need(`the shutdown of the ${name} gateway`, once)) };
}

/** Whether a new TCP connection to `port` is accepted. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

/** Resolves with the exit once the process ends, or undefined after `ms`. */
async function exitWithin(g: Gateway, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([g.launched.exited, new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  })]);
  clearTimeout(timer);
  return exit;
}

check('gateway/shutdown/response-body/shutting-down', GATEWAY, async (t, c) => {
  const { answer } = await scenario(c, 'idle');
  const body = successBody(t, answer, 'POST /shutdown');
  t.is(body?.status, 'shutting_down', JSON.stringify(body));
});

check('gateway/shutdown/running-to-shutting-down/stops-serving', GATEWAY, async (t, c) => {
  const { g, answer } = await scenario(c, 'idle');
  t.is(jsonObject(answer)?.status, 'shutting_down', shown(answer));
  const port = g.rendered.sitePorts[0]!;
  let open = true;
  for (const until = Date.now() + 10_000; open && Date.now() < until; ) {
    open = await accepts(port);
    if (open) await sleep(100);
  }
  t.false(open, 'ten seconds after POST /shutdown the site still accepts connections');
});

check('gateway/shutdown/stops-accepting/while-draining', GATEWAY, async (t, c) => {
  const { g, inflight } = await scenario(c, 'drain');
  const port = g.rendered.sitePorts[0]!;
  let open = true;
  for (const until = Date.now() + 2000; open && Date.now() < until; ) {
    open = await accepts(port);
    if (open) await sleep(50);
  }
  t.false(open, 'two seconds after POST /shutdown, with a request of three seconds in flight, a new connection was accepted');
  await inflight;
});

check('gateway/shutdown/drains-inflight/request-completes', GATEWAY, async (t, c) => {
  const { inflight } = await scenario(c, 'drain');
  const { res, err } = (await inflight)!;
  t.true(res !== undefined && res.status >= 200 && res.status < 300 && res.text === 'slow answer', `the request in flight: ${res ? shown(res) : err?.message}`);
});

check('gateway/shutdown/timeout-bound/exits-within-timeout', GATEWAY, async (t, c) => {
  const { g, sentAt } = await scenario(c, 'timeout');
  const exit = await exitWithin(g, Math.max(0, sentAt + 6000 - Date.now()));
  t.true(exit !== undefined, `shutdownTimeoutSecs 1 and a request of 20 s in flight: the process still runs ${Date.now() - sentAt} ms after POST /shutdown`);
});

check('gateway/shutdown/process-exits/after-drain', GATEWAY, async (t, c) => {
  const { g } = await scenario(c, 'idle');
  t.true((await exitWithin(g, 10_000)) !== undefined, 'the process still runs ten seconds after POST /shutdown with nothing in flight');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/shutdown/response-then-close/admin-closes-too', GATEWAY, async (t, c) => {
  const { g, answer } = await scenario(c, 'idle');
  t.is(answer.status, 200);
  t.is(jsonObject(answer)?.status, 'shutting_down');
  await exitWithin(g, 5000);
  t.false(await accepts(g.rendered.adminPort!), 'the admin port still accepts connections');
});

check('gateway/shutdown/timeout-expiry/connection-closed-without-answer', GATEWAY, async (t, c) => {
  const { inflight } = await scenario(c, 'timeout');
  const { res, err } = (await inflight)!;
  t.true(res === undefined && err !== undefined, `the request still running at the timeout: ${res ? shown(res) : err?.message}`);
});

check('gateway/shutdown/exit-code/zero', GATEWAY, async (t, c) => {
  const { g } = await scenario(c, 'idle');
  const exit = await exitWithin(g, 10_000);
  t.is(exit?.code, 0, JSON.stringify(exit));
});
