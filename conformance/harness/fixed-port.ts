// Cases about a documented default port (a server's 4000, a service's 5100) need that very port: claimed in
// the port registry for the case (so no case of another worker or run uses it meanwhile), and free on the
// machine. Use as a case's `applicable`: the reason is why the case cannot run here.
import type { CaseContext } from './case-context.ts';
import { claimPort, releasePorts } from './free-ports.ts';
import { portOpen } from './launch.ts';

export async function fixedPort(c: CaseContext, port: number): Promise<string | undefined> {
  if (!(await claimPort(port))) return `port ${port} stayed claimed by another case`;
  c.defer(() => releasePorts([port]));
  return (await portOpen(port)) ? `port ${port} is in use on this machine` : undefined;
}
