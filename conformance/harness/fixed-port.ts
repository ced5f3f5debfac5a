// Cases about a documented default port (a server's 4000, a service's 5100) need that very port: claimed in
// the port registry for the case (so no case of another worker or run uses it meanwhile), and free on the
// machine. A port the harness cannot have is the harness's failure to stage the case, not something the
// target lacks: the case ends as `error` with the cause, never `not-applicable`.
import type { CaseContext } from './case-context.ts';
import { claimPort, releasePorts } from './free-ports.ts';
import { portOpen, waitingForOthers } from './launch.ts';

/** How long a case waits for a port other cases (of this run or another) hold. The wait is not the case's
 * time (check.ts pauses its limit), and the cases of one suite that need a default port queue for it in one
 * worker: on a busy machine eight of them held port 8000 in turn for over 30 s. Against a target that hangs
 * each holder keeps the port for its whole time limit, so the wait stays bounded. */
const CLAIM_WAIT_MS = 120_000;

/** Claims `port` in the registry until the case ends; false when other cases held it for CLAIM_WAIT_MS.
 * Waiting for them is not the case's time. */
export async function claimForCase(c: CaseContext, port: number): Promise<boolean> {
  if (!(await waitingForOthers(c.signal, claimPort(port, CLAIM_WAIT_MS)))) return false;
  c.defer(() => releasePorts([port]));
  return true;
}

/** Claims `port` for the case and checks nothing else on the machine listens on it; when either fails the
 * case ends as `error` naming the cause. Shaped for CaseOptions.applicable (it never gives a reason). */
export async function fixedPort(c: CaseContext, port: number): Promise<undefined> {
  if (!(await claimForCase(c, port))) c.inconclusive(`the harness could not have port ${port}: other cases held it for ${CLAIM_WAIT_MS / 1000} s`);
  if (await portOpen(port)) c.inconclusive(`the harness could not have port ${port}: another program listens on it on this machine`);
  return undefined;
}
