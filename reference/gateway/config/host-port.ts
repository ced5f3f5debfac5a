// `host:port` addresses (global.admin.bind): an IPv4 address, a host name, or a bracketed IPv6 address, then
// a port 1-65535.
import ipaddr from 'ipaddr.js';

/** The host (IPv6 without brackets, ready for listen()) and port, or undefined when `text` is not one. */
export function parseHostPort(text: string): { host: string; port: number } | undefined {
  const match = /^(\[([^\]]+)\]|[^:[\]]+):([0-9]{1,5})$/.exec(text);
  if (match === null) return undefined;
  const [, hostPart = '', bracketed, portText = ''] = match;
  const port = Number(portText);
  if (port < 1 || port > 65535) return undefined;
  if (bracketed !== undefined) {
    return ipaddr.IPv6.isValid(bracketed) && !bracketed.includes('%') ? { host: bracketed, port } : undefined;
  }
  return isHostName(hostPart) || ipaddr.IPv4.isValidFourPartDecimal(hostPart) ? { host: hostPart, port } : undefined;
}

/** A DNS name (letters, digits, hyphens, dots; labels of 1-63 characters), not an all-numeric dotted form. */
export function isHostName(text: string): boolean {
  if (text.length > 253 || /^[0-9.]+$/.test(text)) return false;
  return text.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}
