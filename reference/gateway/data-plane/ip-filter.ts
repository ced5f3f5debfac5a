// Client address blocks: parsing CIDRs and single addresses strictly, a normalised form to compare them by
// (`10.0.0.1` = `10.0.0.1/32`, host bits cleared), and matching client addresses, an IPv4-mapped IPv6 client
// being matched as IPv4 (catalog gateway/ip-deny/address-families, delete-scope).
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export interface Block {
  network: Address;
  prefix: number;
  /** `<network>/<prefix>`, the form two equal blocks share. */
  key: string;
}

/** Strict forms only: four-part decimal IPv4, standard IPv6, an optional `/prefix` in range. */
export function parseBlock(text: string): Block | undefined {
  const value = text.trim();
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  let address: Address;
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) address = ipaddr.IPv4.parse(host);
  else if (!host.includes('%') && ipaddr.IPv6.isValid(host)) address = ipaddr.IPv6.parse(host);
  else return undefined;
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  let prefix = bits;
  if (slash >= 0) {
    const digits = value.slice(slash + 1);
    if (!/^\d{1,3}$/.test(digits)) return undefined;
    prefix = Number(digits);
    if (prefix > bits) return undefined;
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const network = networkOf(address, prefix);
  return { network, prefix, key: `${network.toString()}/${prefix}` };
}

function networkOf(address: Address, prefix: number): Address {
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return ipaddr.fromByteArray(bytes);
}

/** The client's address, IPv4-mapped IPv6 turned into IPv4; undefined when unreadable. */
export function parseClient(remoteAddress: string | undefined): Address | undefined {
  if (remoteAddress === undefined || !ipaddr.isValid(remoteAddress)) return undefined;
  return ipaddr.process(remoteAddress);
}

export function matchesAny(client: Address, blocks: readonly Block[]): boolean {
  for (const block of blocks) {
    if (block.network.kind() === client.kind() && client.match(block.network, block.prefix)) return true;
  }
  return false;
}

/** The runtime denies (POST/DELETE /ip-deny): one entry per normalised block, kept across reloads. */
export class DenyList {
  readonly #blocks = new Map<string, Block>();
  #list: Block[] = [];

  get blocks(): readonly Block[] {
    return this.#list;
  }

  add(block: Block): void {
    this.#blocks.set(block.key, block);
    this.#list = [...this.#blocks.values()];
  }

  remove(block: Block): void {
    this.#blocks.delete(block.key);
    this.#list = [...this.#blocks.values()];
  }
}
