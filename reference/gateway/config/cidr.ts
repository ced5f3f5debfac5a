// CIDR blocks and single addresses as the config's ipFilter.deny and the admin API's POST/DELETE /ip-deny
// take them. Strict forms only: IPv4 in four decimal parts (no `010.0.0.1`, `1` or `0x7f.0.0.1`, which
// ipaddr.js would read as other addresses), IPv6 without a zone, a decimal prefix length.
import ipaddr from 'ipaddr.js';

/** The block in one canonical form, `<network address>/<prefix>` (a single address as /32 or /128, IPv6
 * compressed, host bits cleared), so `10.0.0.1` and `10.0.0.1/32` compare equal; undefined when invalid. */
export function normalizeCidr(text: string): string | undefined {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const prefixText = slash === -1 ? undefined : text.slice(slash + 1);
  if (prefixText !== undefined && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined;
  let kind: 'ipv4' | 'ipv6';
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) kind = 'ipv4';
  else if (!address.includes('%') && ipaddr.IPv6.isValid(address)) kind = 'ipv6';
  else return undefined;
  const bits = kind === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  const network =
    kind === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${prefix}`);
  return `${network.toString()}/${prefix}`;
}
