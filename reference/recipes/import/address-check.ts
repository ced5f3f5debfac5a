// The addresses the import connects to: public unicast ones only, unless private addresses are allowed. A server
// that fetches any URL a user gives would otherwise reach what only it can reach — its own loopback services, the
// private network, a cloud's link-local metadata endpoint (169.254.169.254). The check is made on the address
// actually connected to: an IP literal before connecting, a host name's addresses as the lookup returns them (so a
// name that resolves once to a public address and then to a private one is judged on the second), and the socket's
// remote address once connected; and again for every redirect. ipaddr.js classifies the addresses.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  linkLocal: 'a link-local address',
  unspecified: 'the unspecified address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** Why `address` (an IPv4 or IPv6 address) is not fetched from, or null when it is a public unicast address. */
export function addressProblem(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  return `${address} is ${RANGE_NAMES[range] ?? `a reserved address (${range})`}`;
}

/** The host of a URL as an IP address when it is one ("[::1]" → "::1"), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that fails with `refuse(problem)` when the name resolves to an address that is not
 * public (any of them, when several are asked for).
 */
export function checkedLookup(refuse: (problem: string) => Error) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const problem = addressProblem(address);
        if (problem) return callback(refuse(`${hostname} resolves to ${problem}`) as NodeJS.ErrnoException, '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
