// Cases about a documented default port (a server's 4000, a service's 5100) need that very port: claimed in
// the port registry for the case (so no case of another worker or run uses it meanwhile), and free on the
// machine. Use as a case's `applicable`: the reason is why the case cannot run here.
import type { CaseContext } from './case-context.ts';
import { claimPort, releasePorts } from './free-ports.ts';
import { portOpen, waitingForOthers } from './launch.ts';

/** How long a case waits for a port other cases (of this run or another) hold: against a target that hangs,
 * each holder keeps it for its whole time limit, and a longer wait would chain them. */
const CLAIM_WAIT_MS = 30_000;

/** Claims `port` in the registry until the case ends; false when other cases held it for CLAIM_WAIT_MS.
 * Waiting for them is not the case's time. */
export async function claimForCase(c: CaseContext, port: number): Promise<boolean> {
  if (!(await waitingForOthers(c.signal, claimPort(port, CLAIM_WAIT_MS)))) return false;
  c.defer(() => releasePorts([port]));
  return true;
}

export async function fixedPort(c: CaseContext, port: number): Promise<string | undefined> {
  if (!(await claimForCase(c, port))) return `port ${port} stayed claimed by other cases for ${CLAIM_WAIT_MS / 1000} s`;
  return (await portOpen(port)) ? `port ${port} is in use on this machine` : undefined;
}
