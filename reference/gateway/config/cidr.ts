// CIDR blocks and single addresses as the config's ipFilter.deny takes them, read as the admin API's
// POST/DELETE /ip-deny reads them (data-plane/ip-filter.ts parseBlock: same forms, same normal form). Strict
// forms only: IPv4 in four decimal parts (no `010.0.0.1`, `1` or `0x7f.0.0.1`, which ipaddr.js would read as
// other addresses), IPv6 without a zone, a decimal prefix length; surrounding spaces are ignored.
import ipaddr from 'ipaddr.js';

/** The block in one canonical form, `<network address>/<prefix>` (a single address as /32 or /128, IPv6
 * compressed, host bits cleared, an IPv4-mapped IPv6 block as the IPv4 block), so `10.0.0.1` and
 * `10.0.0.1/32` compare equal; undefined when invalid. */
export function normalizeCidr(text: string): string | undefined {
  const value = text.trim();
  const slash = value.indexOf('/');
  const address = slash === -1 ? value : value.slice(0, slash);
  const prefixText = slash === -1 ? undefined : value.slice(slash + 1);
  if (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText)) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) parsed = ipaddr.IPv4.parse(address);
  else if (!address.includes('%') && ipaddr.IPv6.isValid(address)) parsed = ipaddr.IPv6.parse(address);
  else return undefined;
  const bits = parsed.kind() === 'ipv4' ? 32 : 128;
  let prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() && prefix >= 96) {
    parsed = parsed.toIPv4Address();
    prefix -= 96;
  }
  const network =
    parsed instanceof ipaddr.IPv4
      ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`);
  return `${network.toString()}/${prefix}`;
}
